/**
 * Month names and abbreviations as documents print them, lower case with accents off, in the
 * languages the engine reads (dates like "19 april 2014", "7. Mai 2014", "29 maart 2014",
 * "02 Juillet 2015", "3 de julio de 2014"). To extend: add a language's names.
 */
const NAMES: Record<string, string[]> = {
  en: ['january jan', 'february feb', 'march mar', 'april apr', 'may', 'june jun', 'july jul', 'august aug', 'september sep sept', 'october oct', 'november nov', 'december dec'],
  fr: ['janvier janv', 'fevrier fevr fev', 'mars', 'avril avr', 'mai', 'juin', 'juillet juil', 'aout', 'septembre', 'octobre', 'novembre', 'decembre'],
  de: ['januar jan janner', 'februar feb', 'marz mrz maerz', 'april apr', 'mai', 'juni jun', 'juli jul', 'august aug', 'september sep sept', 'oktober okt', 'november nov', 'dezember dez'],
  nl: ['januari jan', 'februari feb', 'maart mrt', 'april apr', 'mei', 'juni jun', 'juli jul', 'augustus aug', 'september sep sept', 'oktober okt', 'november nov', 'december dec'],
  es: ['enero ene', 'febrero feb', 'marzo mar', 'abril abr', 'mayo may', 'junio jun', 'julio jul', 'agosto ago', 'septiembre setiembre sep sept', 'octubre oct', 'noviembre nov', 'diciembre dic'],
  it: ['gennaio gen', 'febbraio feb', 'marzo mar', 'aprile apr', 'maggio mag', 'giugno giu', 'luglio lug', 'agosto ago', 'settembre set', 'ottobre ott', 'novembre nov', 'dicembre dic'],
  pt: ['janeiro jan', 'fevereiro fev', 'marco mar', 'abril abr', 'maio mai', 'junho jun', 'julho jul', 'agosto ago', 'setembro set', 'outubro out', 'novembro nov', 'dezembro dez'],
};

/** Every month name → its number (1–12). */
export const MONTH_NUMBERS: ReadonlyMap<string, number> = new Map(
  Object.values(NAMES).flatMap((months) => months.flatMap((names, i) => names.split(' ').map((name) => [name, i + 1] as const))),
);

/** The English months' full names, January first (the form filler reads "14 Feb 2020" by their first three letters). */
export const ENGLISH_MONTHS: readonly string[] = NAMES.en!.map((names) => names.split(' ')[0]!);

/** Lower case without accents, the form MONTH_NUMBERS is keyed by ("Février" → "fevrier"). */
export function monthKey(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\.$/, '');
}
