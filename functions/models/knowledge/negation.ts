/**
 * Words that deny what follows them, to the end of their clause: a category described as "a form
 * filled in on paper (no fillable fields)" is not one with fillable fields, and its description's
 * words "fillable fields" are no evidence for it (../local/evidence.ts `deniedSpans`). By language,
 * comma-separated, lower case, accents as written. A word joined by a hyphen ("non-disclosure") does
 * not deny.
 */
export const NEGATIONS: Record<string, string> = {
  en: "no, not, without, never, none, except, unless, isn't, aren't, don't, doesn't, cannot, can't",
  de: 'kein, keine, keinen, keinem, keiner, ohne, nicht',
  fr: 'sans, pas, aucun, aucune, non',
  es: 'sin, ningún, ninguna, ningun, no',
  it: 'senza, nessun, nessuna, non',
  nl: 'geen, zonder, niet',
  pt: 'sem, nenhum, nenhuma, não, nao',
};
