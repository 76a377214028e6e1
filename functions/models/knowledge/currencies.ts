/**
 * How documents show their currency: ISO codes, symbols and words, and for the dollar sign (which a
 * dozen currencies share) the words that tell which country a document is from. Used to read a
 * `currency` field and to read amounts printed with a mark ("RM 12.00", "12,50 €", "Rs. 450").
 *
 * To extend: add a currency, a spelling, or a country's cue words.
 */

export interface CurrencyInfo {
  code: string;
  /** Marks printed next to amounts, as printed (case matters for the short ones: "RM", "Rs"). */
  marks: string[];
  /** Words naming the currency (lower case, accents off). */
  words: string[];
}

export const CURRENCIES: readonly CurrencyInfo[] = [
  { code: 'USD', marks: ['US$', 'USD', 'U.S.$'], words: ['us dollar', 'us dollars', 'u.s. dollars', 'united states dollars', 'dollars us'] },
  { code: 'EUR', marks: ['€', 'EUR', 'EURO', 'Eur'], words: ['euro', 'euros'] },
  { code: 'GBP', marks: ['£', 'GBP'], words: ['pound sterling', 'pounds sterling', 'british pounds'] },
  { code: 'JPY', marks: ['¥', 'JPY', '円'], words: ['japanese yen', 'yen'] },
  { code: 'CNY', marks: ['CNY', 'RMB', '元'], words: ['renminbi', 'yuan'] },
  { code: 'INR', marks: ['₹', 'INR', 'Rs', 'Rs.', 'RS', 'RS.'], words: ['rupees', 'indian rupees', 'rupee'] },
  { code: 'MYR', marks: ['RM', 'MYR', 'Rm'], words: ['ringgit', 'ringgit malaysia'] },
  { code: 'SGD', marks: ['S$', 'SGD', 'SG$'], words: ['singapore dollars', 'singapore dollar'] },
  { code: 'AUD', marks: ['A$', 'AUD', 'AU$'], words: ['australian dollars', 'australian dollar'] },
  { code: 'CAD', marks: ['C$', 'CA$', 'CAD'], words: ['canadian dollars', 'canadian dollar'] },
  { code: 'NZD', marks: ['NZ$', 'NZD'], words: ['new zealand dollars'] },
  { code: 'HKD', marks: ['HK$', 'HKD'], words: ['hong kong dollars'] },
  { code: 'CHF', marks: ['CHF', 'Fr.', 'SFr.'], words: ['swiss francs', 'franken'] },
  // ("Peso" alone names none: eight currencies are pesos, and "peso" is weight in Spanish and
  // Portuguese, as in a Brazilian invoice's "PESO BRUTO".)
  { code: 'PHP', marks: ['₱', 'PHP', 'Php', 'P'], words: ['philippine pesos', 'philippine peso'] },
  { code: 'THB', marks: ['฿', 'THB'], words: ['baht'] },
  { code: 'IDR', marks: ['IDR', 'Rp', 'Rp.'], words: ['rupiah'] },
  { code: 'KRW', marks: ['₩', 'KRW'], words: ['won'] },
  { code: 'RUB', marks: ['₽', 'RUB', 'руб'], words: ['roubles', 'rubles'] },
  { code: 'TRY', marks: ['₺', 'TRY', 'TL'], words: ['turkish lira'] },
  { code: 'ILS', marks: ['₪', 'ILS', 'NIS'], words: ['shekels', 'new israeli shekels'] },
  { code: 'BRL', marks: ['R$', 'BRL'], words: ['reais', 'real brasileiro'] },
  { code: 'MXN', marks: ['MXN', 'MX$'], words: ['pesos mexicanos', 'mexican pesos'] },
  { code: 'ARS', marks: ['ARS', 'AR$'], words: ['pesos argentinos', 'argentine pesos'] },
  { code: 'CLP', marks: ['CLP'], words: ['pesos chilenos', 'chilean pesos'] },
  { code: 'COP', marks: ['COP', 'COL$'], words: ['pesos colombianos', 'colombian pesos'] },
  { code: 'ZAR', marks: ['ZAR', 'R'], words: ['rand'] },
  { code: 'SEK', marks: ['SEK', 'kr'], words: ['kronor', 'svenska kronor'] },
  { code: 'NOK', marks: ['NOK'], words: ['norske kroner'] },
  { code: 'DKK', marks: ['DKK'], words: ['danske kroner'] },
  { code: 'PLN', marks: ['PLN', 'zł', 'zl'], words: ['zloty', 'zlotych'] },
  { code: 'CZK', marks: ['CZK', 'Kč'], words: ['koruna', 'korun'] },
  { code: 'HUF', marks: ['HUF', 'Ft'], words: ['forint'] },
  { code: 'AED', marks: ['AED', 'Dhs', 'DHS'], words: ['dirhams', 'dirham'] },
  { code: 'SAR', marks: ['SAR'], words: ['riyals', 'saudi riyal'] },
  { code: 'VND', marks: ['₫', 'VND'], words: ['dong'] },
  { code: 'KES', marks: ['KES', 'KSh', 'Ksh'], words: ['kenya shillings', 'kenyan shillings'] },
  { code: 'TZS', marks: ['TZS', 'TSh', 'Tsh'], words: ['tanzania shillings', 'tanzanian shillings'] },
  { code: 'NGN', marks: ['₦', 'NGN'], words: ['naira'] },
];

/**
 * Marks so short or common that alone they are no evidence of a currency ("P" and "R" are letters,
 * "kr" and "Fr." abbreviations): they count only printed against a number ("P 1,250.00", "R 99").
 * ("SR", Saudi riyal for some, is the standard-rate tax code of Malaysian receipts: not a mark here.)
 */
export const WEAK_MARKS = new Set(['P', 'R', 'kr', 'Fr.', 'TL', 'Ft', 'Rm', 'Rs', 'RS', 'Php', 'Eur']);

/**
 * Words of a column header or label that name money ("Cost $", "Price €", "AMOUNT RM", "Netto EUR",
 * "Beträge in EUR"): a mark after one (or after "in" after one) states the currency of the column or
 * of the document. Lower case, in the corpus languages.
 */
export const MONEY_WORDS: ReadonlySet<string> = new Set(
  `amount amounts price prices cost costs rate rates total totals charge charges fee fees value sum balance subtotal net gross tax vat
  betrag beträge betraege preis preise summe gesamt gesamtbetrag netto brutto mwst ust steuer
  montant montants prix somme tva ht ttc
  importe importes precio precios suma iva
  importo importi prezzo prezzi totale imponibile
  bedrag bedragen prijs prijzen totaal btw
  valor valores preço preços preco precos`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Codes of the currencies the euro replaced: documents from before 2002 (and their samples) print them
 * ("Total Amount (DEM)"). Read only where a code is sure to be one, in brackets after a word naming
 * money or against a number: "DEM" is also German for "the", "(ESP)" may name Spain.
 */
export const FORMER_CODES: ReadonlySet<string> = new Set(['DEM', 'FRF', 'ITL', 'ESP', 'NLG', 'BEF', 'LUF', 'ATS', 'PTE', 'IEP', 'FIM', 'GRD']);

/** Words between a money word and the currency it is stated in: "Beträge in EUR", "montants en euros". */
export const STATED_IN: ReadonlySet<string> = new Set(['in', 'en', 'em', 'im']);

/**
 * Words that tell which country a document is from, and that country's currency. They settle a bare
 * "$" (a "$" on a document with none of the dollar countries' cues is a US dollar) and confirm a
 * currency mark OCR read unsure ("(RM)" on a receipt from Johor). Cues are lower case and match whole
 * words; `postal` is how the country writes a place and its postcode ("CINCINNATI, OH 45238").
 */
export interface CountryCues {
  code: string;
  cues: string[];
  postal?: RegExp;
}

/** The two-letter codes of the US states, DC and the territories that use ZIP codes. */
const US_STATES = 'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI'.split(' ');

export const COUNTRIES: readonly CountryCues[] = [
  { code: 'AUD', cues: ['australia', 'abn', 'acn', 'nsw', 'new south wales', 'queensland', 'qld', 'western australia', 'tasmania', 'pty ltd', 'bsb'] },
  { code: 'CAD', cues: ['canada', 'ontario', 'quebec', 'british columbia', 'alberta', 'manitoba', 'hst', 'gst/hst', 'qst'] },
  { code: 'NZD', cues: ['new zealand', 'auckland', 'wellington', 'ird number'] },
  { code: 'SGD', cues: ['singapore', 'pte ltd', 'uen'] },
  { code: 'HKD', cues: ['hong kong', 'kowloon'] },
  { code: 'MYR', cues: ['malaysia', 'sdn bhd', 'sdn. bhd', 'jalan', 'jln', 'selangor', 'johor', 'kuala lumpur', 'penang', 'pulau pinang', 'perak', 'kedah', 'melaka', 'sabah', 'sarawak', 'pahang', 'negeri sembilan', 'terengganu', 'kelantan', 'gst id', 'gst reg'] },
  { code: 'MXN', cues: ['mexico', 'méxico', 'rfc'] },
  // CUIT (tax id), AFIP (tax agency), "Ingresos Brutos" (provincial tax), IVA "Responsable Inscripto".
  { code: 'ARS', cues: ['argentina', 'cuit', 'afip', 'ingresos brutos', 'responsable inscripto', 'monotributo', 'buenos aires', 'caba'] },
  { code: 'CLP', cues: ['chile', 'santiago de chile'] },
  { code: 'COP', cues: ['colombia', 'bogotá', 'bogota', 'medellín', 'medellin'] },
  { code: 'USD', cues: ['united states', 'usa', 'u.s.a.'], postal: new RegExp(`\\b(?:${US_STATES.join('|')}),?\\s+\\d{5}(?:-\\d{4})?\\b`) },
];

/**
 * A currency's name that several countries' currencies share ("pesos": Argentina's, Mexico's,
 * Chile's, Colombia's, the Philippines'…; "son pesos diecisiete mil" writes an amount out). Printed on a
 * document from one of those countries (COUNTRIES), it names that country's currency. (The singular
 * "peso" is left out: it is a weight in Spanish and Portuguese, "peso bruto".)
 */
export const SHARED_CURRENCY_NAMES: ReadonlyArray<{ word: string; codes: readonly string[] }> = [{ word: 'pesos', codes: ['ARS', 'MXN', 'CLP', 'COP', 'PHP'] }];

/** Currencies written with a bare "$" somewhere. */
export const DOLLAR_SIGN_CODES: ReadonlySet<string> = new Set(['USD', 'AUD', 'CAD', 'NZD', 'SGD', 'HKD', 'MXN', 'ARS', 'CLP', 'COP']);

/**
 * The currency names (CurrencyInfo.words) printed in a line of words: each with its code, the index of
 * its first word and the name, in the order of CURRENCIES and their words. A word is compared in lower
 * case, with only its letters and dots.
 */
export function currencyNamesIn(words: readonly string[]): Array<{ code: string; at: number; name: string }> {
  const lower = words.map((w) => w.toLowerCase().replace(/[^\p{L}.]/gu, ''));
  const found: Array<{ code: string; at: number; name: string }> = [];
  for (const c of CURRENCIES) {
    for (const name of c.words) {
      const parts = name.split(' ');
      for (let i = 0; i + parts.length <= lower.length; i++) if (parts.every((p, j) => lower[i + j] === p)) found.push({ code: c.code, at: i, name });
    }
  }
  return found;
}

/** How a currency may be printed: its marks, its names, and "$" for the dollars (empty for an unknown code). */
export function printingsOf(code: string): string[] {
  const info = CURRENCIES.find((c) => c.code === code);
  if (!info) return [];
  return [...info.marks, ...info.words, ...(DOLLAR_SIGN_CODES.has(code) ? ['$'] : [])];
}
