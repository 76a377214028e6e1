/**
 * Layout cues: what a document's shape says about its kind, beyond its words. A letter opens with a
 * salutation and closes with a signature; a paper has an abstract and references; a contract numbered
 * clauses; a manual or report a table of contents; an invoice or receipt a block of totals; a form
 * fields to fill; an ID card is a small card-shaped picture; a deck is landscape slides; a receipt a
 * tall narrow strip, and the money tendered at the till with the change given back. The kinds that have each cue are in ../knowledge/document-types.ts.
 */
import { dataTables, type Page } from '../../documents/doc.ts';
import type { DocumentKind } from '../../documents/sniff.ts';
import { FORMAT_CUES, type LayoutCue, PRESENT_WORDS } from '../knowledge/document-types.ts';
import { MONTH_NUMBERS } from '../knowledge/months.ts';
import { listOf, unaccented } from '../shared/words.ts';
import type { PageLine } from './text.ts';
import { CUE_SETTINGS } from './weights/cues.ts';

export interface Cue {
  cue: LayoutCue;
  /** How strong the sighting is (1 usually; fillable fields make a form beyond doubt: 3 and more with their number). */
  strength: number;
  /** What was seen, for the reasoning ("salutation “Dear Sir,”"). */
  evidence: string;
}

const SALUTATION = /^(dear|to whom it may concern|gentlemen|ladies and gentlemen|madame|monsieur|madame, monsieur|sehr geehrte|liebe|geachte|beste|estimad[oa]s?|señor|senor|gentile|egregio|spettabile|prezad[oa]s?|caro|cara)\b/i;
const CLOSING = /^(sincerely|yours sincerely|yours faithfully|yours truly|very truly yours|respectfully|kind regards|best regards|regards|cordialement|bien cordialement|veuillez agr[ée]er|mit freundlichen gr[üu](ß|ss)en|met vriendelijke groet(en)?|hoogachtend|atentamente|cordiales saludos|cordiali saluti|distinti saluti|atenciosamente|cumprimentos|best wishes|warm regards|with best regards|hochachtungsvoll|(viele|beste|herzliche|freundliche) gr[üu](ß|ss)e|salutations distingu[ée]es|bien [àa] vous|saludos cordiales|un saludo|met hartelijke groet(en)?|hartelijke groet(en)?|cordialmente|com os melhores cumprimentos)\b/i;
const ABSTRACT = /^(abstract|summary|résumé|zusammenfassung|samenvatting|resumen|sommario|resumo)\b/i;
const REFERENCES = /^(references|bibliography|works cited|literature cited|références|literatur|literatuur|referencias|bibliografia|referências)\b/i;
/** A numbered clause or article, in the corpus languages ("Artículo 1", "Artikel 3", "Clausola 2", "Considérant"). */
const CLAUSE = /^(\(?\d{1,2}(\.\d{1,2}){0,3}[.)]?\s+\p{Lu}|(article|art[ií]culo|artikel|articolo|artigo)\s+\d|art\.\s*\d|(section|secci[oó]n|sezione|sec[cç][aã]o)\s+\d|(clause|cl[aá]usula|klausel|clausola)\s+\d|§\s*\d|whereas\b|now,? therefore\b|consid[ée]rant\b|considerando\b|overwegende\b)/iu;
const CONTENTS = /^(table of contents|contents|sommaire|table des matières|inhaltsverzeichnis|inhalt|inhoud|inhoudsopgave|índice|indice|sumário)\b/i;
const TOTAL_LINE = /^(sub\s?-?total|total|grand total|amount due|balance due|net total|nett total|total due|total ttc|total ht|totaal|gesamt|summe|importe total|totale)\b.*\d[.,]\d{2}\b/i;
const MONTH = [...MONTH_NUMBERS.keys()].join('|');
/**
 * A CV entry's period: a month and year to another, or to now ("Sep. 2023 – Mar. 2024", "Jun 2018 Jan
 * 2021", "mars 2019 – aujourd'hui"), read on a line without accents in lower case. (Years alone are not
 * enough: a financial statement's columns print "2022 2023".)
 */
const PERIOD = new RegExp(
  `(?<![\\p{L}\\d])(?:${MONTH})\\.?\\s+(?:19|20)\\d{2}\\s*(?:[-–—/]|to|bis|au|a|al|tot)?\\s*(?:(?:${MONTH})\\.?\\s+(?:19|20)\\d{2}|${listOf(PRESENT_WORDS).join('|')})(?![\\p{L}\\d])`,
  'u',
);
const YEAR = /(?:19|20)\d{2}/;
const BLANK_FIELD = /_{5,}|\.{8,}|☐|☑|☒|□|\[\s?\]/;
/** Paid at a till: the money handed over, then the change given back ("Cash 50.00", "Change 41.00"). */
const TENDERED = /^(cash|cash tendered|tendered|amount tendered|customer'?s? payment|paid|bar|bargeld|gegeben|esp[eè]ces|efectivo|contanti|dinheiro|contant)\b.*\d[.,]\d{2}\b/i;
const CHANGE_GIVEN = /^(change|change due|your change|r[uü]ckgeld|wechselgeld|rendu|monnaie rendue|cambio|vuelto|resto|troco|wisselgeld)\b.*\d[.,]\d{2}\b/i;

/** The cues a document shows on its first pages (`lines` are those pages' lines, as classification reads them). */
export function layoutCues(pages: readonly Page[], lines: readonly PageLine[][]): Cue[] {
  const cues: Cue[] = [];
  const all = lines.flat();
  const texts = all.map((l) => l.text.trim());

  const salutation = texts.find((t) => SALUTATION.test(t) && t.length < CUE_SETTINGS.salutationCharacters);
  const closing = texts.find((t) => CLOSING.test(t) && t.length < CUE_SETTINGS.closingCharacters);
  if (salutation && closing) cues.push({ cue: 'letter', strength: CUE_SETTINGS.strength, evidence: `salutation "${salutation.slice(0, 30)}" and closing "${closing.slice(0, 30)}"` });
  else if (salutation && texts.indexOf(salutation) < CUE_SETTINGS.salutationAloneLines) cues.push({ cue: 'letter', strength: CUE_SETTINGS.strength, evidence: `salutation "${salutation.slice(0, 30)}"` });

  const abstract = texts.findIndex((t) => ABSTRACT.test(t) && t.split(' ').length <= CUE_SETTINGS.abstractWords);
  const references = texts.findIndex((t) => REFERENCES.test(t) && t.split(' ').length <= CUE_SETTINGS.referencesWords);
  if (abstract >= 0 && abstract < CUE_SETTINGS.abstractLines && references > abstract) cues.push({ cue: 'paper', strength: CUE_SETTINGS.strength, evidence: 'an abstract and references' });

  const clauses = texts.filter((t) => CLAUSE.test(t)).length;
  if (clauses >= CUE_SETTINGS.clauses && clauses >= texts.length * CUE_SETTINGS.clauseShare) cues.push({ cue: 'clauses', strength: CUE_SETTINGS.strength, evidence: `${clauses} numbered clauses` });

  const contentsTitle = texts.find((t) => CONTENTS.test(t) && t.split(' ').length <= CUE_SETTINGS.contentsTitleWords);
  const leaders = texts.filter((t) => /(\.\s?){4,}\s*\d{1,3}$/.test(t)).length;
  if (contentsTitle || leaders >= CUE_SETTINGS.contentsLeaders) cues.push({ cue: 'contents', strength: CUE_SETTINGS.strength, evidence: contentsTitle ? `"${contentsTitle}"` : `${leaders} lines of a table of contents` });

  // (Only a line with a year can hold one.)
  const periods = texts.filter((t) => YEAR.test(t) && PERIOD.test(unaccented(t).replace(/’/g, "'").toLowerCase())).length;
  if (periods >= CUE_SETTINGS.periods) cues.push({ cue: 'periods', strength: CUE_SETTINGS.strength, evidence: `${periods} periods from a month to another` });

  const totals = texts.filter((t) => TOTAL_LINE.test(t)).length;
  if (totals >= 1) cues.push({ cue: 'totals', strength: CUE_SETTINGS.strength, evidence: 'a block of totals' });

  const tendered = texts.findIndex((t) => TENDERED.test(t));
  if (tendered >= 0 && texts.slice(tendered + 1, tendered + 1 + CUE_SETTINGS.changeLines).some((t) => CHANGE_GIVEN.test(t))) cues.push({ cue: 'till', strength: CUE_SETTINGS.strength, evidence: 'money tendered and change given' });

  const fields = pages.reduce((sum, p) => sum + (p.formFields ?? 0), 0);
  const blanks = texts.filter((t) => BLANK_FIELD.test(t)).length;
  // (Fields to fill on screen and blanks printed to fill on paper are cues apart: a category may deny the one and not the other, "no fillable fields".)
  if (fields > 0) cues.push({ cue: 'fillable', strength: CUE_SETTINGS.formFieldsStrength + Math.log2(fields), evidence: `${fields} fillable form fields` });
  else if (blanks >= CUE_SETTINGS.formBlanks) cues.push({ cue: 'form', strength: CUE_SETTINGS.strength, evidence: `${blanks} blanks to fill in` });

  const first = pages[0];
  if (first) {
    const ratio = first.width / Math.max(1, first.height);
    const words = first.words.length;
    // ID-1 cards are 85.6 × 54 mm (1.59): a single picture of about that shape with a few words.
    if (pages.length === 1 && first.ocr && ratio > CUE_SETTINGS.cardMinRatio && ratio < CUE_SETTINGS.cardMaxRatio && words >= CUE_SETTINGS.cardMinWords && words < CUE_SETTINGS.cardMaxWords) cues.push({ cue: 'card', strength: CUE_SETTINGS.strength, evidence: 'a card-shaped picture' });
    // A tall narrow column of print (a till receipt), however much blank paper the scan has around it.
    const extent = extentOf(first);
    if (first.ocr && extent && extent.height / Math.max(1, extent.width) > CUE_SETTINGS.stripRatio && words < CUE_SETTINGS.stripMaxWords) cues.push({ cue: 'receipt_strip', strength: CUE_SETTINGS.strength, evidence: 'a narrow strip of print' });
  }
  const landscape = pages.filter((p) => p.width > p.height * CUE_SETTINGS.landscapeRatio).length;
  const sparse = pages.filter((p) => p.words.length < CUE_SETTINGS.sparseWords).length;
  if (pages.length >= CUE_SETTINGS.slidesPages && landscape >= pages.length * CUE_SETTINGS.landscapeShare && sparse >= pages.length * CUE_SETTINGS.sparseShare) cues.push({ cue: 'slides', strength: CUE_SETTINGS.strength, evidence: 'landscape slides with little text' });

  const tabled = pages.filter((p) => dataTables(p).length > 0).length;
  if (pages.length > 0 && tabled >= Math.max(1, pages.length * CUE_SETTINGS.tabledShare)) cues.push({ cue: 'table_heavy', strength: CUE_SETTINGS.strength, evidence: 'pages of tables' });
  return cues;
}

/**
 * Pages that are worksheets (every word read from a cell: an XLSX or CSV file's sheets, inside a bundle
 * or an e-mail too) are a workbook's, as the format of a file of their own says (formatCues).
 */
export function sheetCues(pages: readonly Page[]): Cue[] {
  const withWords = pages.filter((p) => p.words.length > 0);
  const sheets = withWords.length > 0 && withWords.every((p) => p.words.every((w) => w.origin.kind === 'cell'));
  return sheets ? [{ cue: 'workbook', strength: CUE_SETTINGS.formatStrength, evidence: withWords.length === 1 ? 'a worksheet' : `${withWords.length} worksheets` }] : [];
}

/**
 * What the format says of pages of a file of `kind`, for a split: every page of a deck, a web page, a
 * book or a workbook is of the file's format; an e-mail's pages are its message and its attachments,
 * documents of their own, so only their worksheets say what they are (sheetCues).
 */
export function pageFormatCues(kind: DocumentKind, pages: readonly Page[]): Cue[] {
  const own = kind === 'eml' || kind === 'msg' ? [] : formatCues(kind);
  return own.length > 0 ? own : sheetCues(pages);
}

/** What the file's own format says of its kind (../knowledge/document-types.ts FORMAT_CUES): a workbook, a PPTX, an HTML page, an e-mail. */
export function formatCues(kind: DocumentKind): Cue[] {
  const cue = FORMAT_CUES[kind];
  const name = kind.toUpperCase();
  // Spelt out, a name that starts with one of these letters starts with a vowel ("an XLSX file", "an EPUB file").
  const article = /^[AEFHILMNORSX]/.test(name) ? 'an' : 'a';
  return cue ? [{ cue, strength: CUE_SETTINGS.formatStrength, evidence: `${article} ${name} file` }] : [];
}

/** The box around a page's words (the print, without the paper around it). */
function extentOf(page: Page): { width: number; height: number } | undefined {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const w of page.words) {
    if (!w.box) continue;
    left = Math.min(left, w.box.left);
    top = Math.min(top, w.box.top);
    right = Math.max(right, w.box.left + w.box.width);
    bottom = Math.max(bottom, w.box.top + w.box.height);
  }
  return right > left ? { width: right - left, height: bottom - top } : undefined;
}
