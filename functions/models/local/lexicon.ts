/**
 * The document-type knowledge of ../knowledge/document-types.ts as features: for each kind of
 * document, the stemmed names that call on it (in a category's name or description) and the features
 * (stems and two-word phrases) such documents are printed with, and its layout cues.
 */
import { DOCUMENT_TYPES, type LayoutCue } from '../knowledge/document-types.ts';
import { textFeatures } from '../shared/words.ts';

/** One kind of document as features. */
export interface LexiconEntry {
  id: string;
  /** Each name as its content stems (the first is the entry's own); a name triggers when its stems appear in a row. */
  triggers: string[][];
  /** Names that call on it too but are no sign of it in a document (DocumentType.calledBy). */
  callers: string[][];
  features: string[];
  /** Layout cues and how telling each is. */
  cues: Array<[LayoutCue, number]>;
}

function build(): LexiconEntry[] {
  return DOCUMENT_TYPES.map((type) => {
    const stemsOf = (names: string) => names.split(',').map((name) => textFeatures(name.trim()).stems).filter((stems) => stems.length > 0);
    const triggers = stemsOf(type.names);
    const callers = stemsOf(type.calledBy ?? '');
    const features = new Set<string>();
    for (const term of type.terms.split(',')) {
      const { stems, phrases } = textFeatures(term.trim());
      // A one-word term is a stem feature; a longer one contributes its phrases (the words alone are
      // too common: "due", "pay", "number").
      if (stems.length === 1) features.add(stems[0]!);
      for (const phrase of phrases) features.add(phrase);
    }
    return { id: type.id, triggers, callers, features: [...features], cues: Object.entries(type.cues ?? {}) as Array<[LayoutCue, number]> };
  });
}

export const LEXICON: readonly LexiconEntry[] = build();
