/**
 * Reading a value of a field's type from the words printed where it should be (after its label, in
 * the cell beside it): numbers with thousands separators, currency and accounting negatives; dates in
 * the usual numeric and spelled-out forms, to ISO 8601; yes/no and checkboxes to booleans; enum
 * options by similarity; strings trimmed to what a field of that kind holds.
 *
 * Every reader returns the value, the words that back it (the smallest printed text: "1,250.00", not
 * its line) and a 0..1 fit: how well the words are a value of that kind.
 */
import { currencyNamesIn } from '../knowledge/currencies.ts';
import { MONTH_NUMBERS, monthKey } from '../knowledge/months.ts';
import type { XWord } from './extract-index.ts';
import { normalizeToken } from './extract-index.ts';
import { leafAccepts, type LeafNode } from './extract-schema.ts';
import { NUMBER, textStems } from './extract-words.ts';
import { VALUE_WEIGHTS } from './weights/extract-values.ts';

export interface Read {
  value: unknown;
  words: XWord[];
  fit: number;
}

/** What kind of field a leaf is, beyond its JSON type (read once per leaf from its name). */
export interface LeafTraits {
  /** A code or number of something ("invoice_number", "account_id"): one token with digits. */
  identifier: boolean;
  /** Dates, by format or by name. */
  date: boolean;
  dateTime: boolean;
  /** The start (or end) of a range: the first (or second) of two dates. */
  rangeEnd: 'start' | 'end' | undefined;
  /** A name of a person or company: a short phrase. */
  name: boolean;
  /** A street address: may span lines. */
  address: boolean;
  /** Long free text (notes, comments): keep all of it. */
  freeText: boolean;
  /** A percentage or rate: "8%" is 8. */
  percent: boolean;
  /** A currency code field. */
  currency: boolean;
}

const has = (stems: Set<string>, ...words: string[]) => words.some((w) => stems.has(w));

export function traitsOf(leaf: LeafNode): LeafTraits {
  const stems = new Set(textStems(leaf.info.key || leaf.info.title || ''));
  const format = leaf.format;
  const date = format === 'date' || format === 'date-time' || (leaf.type === 'string' && !leaf.enum && has(stems, 'date', 'dob', 'dai', 'birth', 'dated'));
  return {
    identifier: leaf.type !== 'number' && leaf.type !== 'integer' && !date && has(stems, NUMBER, 'code', 'refer', 'iban', 'swift', 'sku'),
    date,
    dateTime: format === 'date-time',
    rangeEnd: has(stems, 'start', 'begin', 'from', 'open', 'first') ? 'start' : has(stems, 'end', 'to', 'through', 'until', 'close', 'last') ? 'end' : undefined,
    name: has(stems, 'name', 'vendor', 'supplier', 'seller', 'custom', 'client', 'buyer', 'compani', 'merchant', 'payee', 'payer', 'holder', 'store', 'bank'),
    address: has(stems, 'address', 'street', 'locat'),
    freeText: has(stems, 'note', 'comment', 'remark', 'descript', 'summari', 'memo', 'messag', 'instruct', 'detail', 'text', 'bodi'),
    percent: has(stems, 'percent', 'pct', 'rate', 'ratio'),
    currency: has(stems, 'currenc', 'ccy'),
  };
}

// ---------------------------------------------------------------------------------------------
// Numbers

const CURRENCY_SYMBOL = /^[$€£¥₹₩₽₺₪₫฿₱]|^(?:US\$|CA\$|A\$|R\$|HK\$|S\$)/;
const CURRENCY_CODES = new Set(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'CNY', 'INR', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'ZAR', 'BRL', 'MXN', 'SGD', 'HKD', 'KRW', 'TRY', 'RUB', 'ILS', 'AED', 'SAR']);
/** A currency code printed against the number: "USD12", "12 EUR" (only real codes: "INV-2024" is no amount). */
const CODE_BEFORE = new RegExp(`^(?:${[...CURRENCY_CODES].join('|')})\\s?(?=[-\\d.,])`);
const CODE_AFTER = new RegExp(`\\s?(?:${[...CURRENCY_CODES].join('|')})$`);
const SYMBOL_CODES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '฿': 'THB', '₱': 'PHP' };

/**
 * A printed number → its value: "1,250.00", "1.250,00", "$18,850.32", "(45.00)", "-45.00", "45.00-",
 * "12%". The separator printed last is the decimal one when both appear; a lone separator followed
 * by exactly three digits is a thousands separator ("1,250"), otherwise decimal ("38,5").
 */
export function parseNumber(text: string): { value: number; percent: boolean } | undefined {
  let t = text.trim().replace(/[\u2212\u2013]/g, '-');
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1);
  }
  // Currency symbols and codes around the number; a trailing minus or CR/DR marker.
  t = t.replace(CURRENCY_SYMBOL, '').replace(CODE_BEFORE, '').replace(CODE_AFTER, '').replace(/[$€£¥₹]$/, '');
  if (/^-/.test(t)) {
    negative = !negative;
    t = t.slice(1);
  }
  t = t.replace(CURRENCY_SYMBOL, '');
  if (/-$/.test(t)) {
    negative = !negative;
    t = t.slice(0, -1);
  }
  const percent = t.endsWith('%');
  if (percent) t = t.slice(0, -1);
  t = t.replace(/[,.;:]$/, '').replace(/['’\u00a0\u202f ]/g, '');
  if (!/^\d[\d.,]*$|^[.,]\d+$/.test(t)) return undefined;
  const lastComma = t.lastIndexOf(',');
  const lastDot = t.lastIndexOf('.');
  let normalized: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    normalized = t.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const separator = lastComma >= 0 ? ',' : '.';
    const parts = t.split(separator);
    const grouped = parts.length > 1 && parts.slice(1).every((p) => p.length === 3) && parts[0]!.length <= 3 && parts[0]!.length > 0;
    // "1,250" and "1.250.000" group thousands; "1.25", "38,5" and "1,25" have decimals. A single dot
    // before three digits ("1.250") reads as a decimal: English documents print thousands with commas.
    if (grouped && (separator === ',' || parts.length > 2)) normalized = parts.join('');
    else if (parts.length === 2) normalized = `${parts[0]}.${parts[1]}`;
    else return undefined;
  } else {
    normalized = t;
  }
  const value = Number(normalized);
  if (!Number.isFinite(value)) return undefined;
  return { value: negative ? -value : value, percent };
}

/** Whether a word is only a currency mark ("$", "USD", "EUR"). */
function isCurrencyWord(text: string): boolean {
  return /^[$€£¥₹]$/.test(text) || CURRENCY_CODES.has(text.replace(/[():]/g, ''));
}

function readNumber(words: XWord[], leaf: LeafNode, traits: LeafTraits): Read | undefined {
  for (let i = 0; i < words.length && i < VALUE_WEIGHTS.numberWords; i++) {
    const word = words[i]!;
    if (isCurrencyWord(word.text) || /^[:=\-–#]$/.test(word.text)) continue;
    // A number split at a space used as a thousands separator ("1 250,00"): glue the groups back.
    let text = word.text;
    let used = [word];
    while (used.length < VALUE_WEIGHTS.spacedNumberWords && words[i + used.length] && /^\d{3}([.,]\d+)?[-)]?$/.test(words[i + used.length]!.text) && /^[-($€£]?\d{1,3}$/.test(text.replace(/^[$€£]/, ''))) {
      text += words[i + used.length]!.text;
      used = words.slice(i, i + used.length + 1);
    }
    // OCR read a space after the decimal point ("RM 39. 80"): the cents are the next word.
    const next = words[i + used.length];
    if (word.confidence !== undefined && next && /^[-($€£]?[\d,]*\d\.$/.test(text) && /^\d{2}$/.test(next.text)) {
      text += next.text;
      used = words.slice(i, i + used.length + 1);
    }
    // Digits after a leading zero ("040510", "0300") are a code or a date written short, never a
    // count or an amount (those print "0.50" or "40,510").
    if (/^0\d{3,}$/.test(text)) return undefined;
    const parsed = parseNumber(text);
    if (!parsed) {
      // Words before the number are tolerated only as a unit or a short qualifier ("approx.", "USD").
      if (/\d/.test(word.text)) return undefined;
      continue;
    }
    // A rate beside an amount ("Tax (8%): 1,396.32") is not the amount.
    if (parsed.percent && !traits.percent) continue;
    let value = parsed.value;
    if (leaf.type === 'integer') {
      if (!Number.isInteger(value)) return undefined;
    }
    if (!Number.isFinite(value)) return undefined;
    value = Math.round(value * 1e9) / 1e9;
    // Only currency marks and separators before the number: it is the value itself ("USD 1,250.00").
    const leading = words.slice(0, i).every((w) => isCurrencyWord(w.text) || /^[:=\-–#]$/.test(w.text));
    return { value, words: used, fit: leading ? 1 : VALUE_WEIGHTS.numberAfterWords };
  }
  return undefined;
}

/**
 * An amount read on a form that prints money in split dollars | cents boxes (DocIndex.splitCents):
 * "41 40" (the divider read as a gap) is 41.40, and so is "4140" (the divider lost) when nothing
 * follows it in its cell or region. A whole number followed by something else (cents OCR garbled)
 * stays as read, its dollars right.
 */
export function withSplitCents(read: Read, words: XWord[]): Read {
  const last = read.words[read.words.length - 1]!;
  if (read.words.length !== 1 || !/^\d+$/.test(last.text)) return read;
  const next = words[words.indexOf(last) + 1];
  if (next && /^\d{2}$/.test(next.text)) return { ...read, value: Number(last.text) + Number(next.text) / 100, words: [last, next] };
  if (!next && last.text.length >= VALUE_WEIGHTS.splitCentsDigits) return { ...read, value: Number(last.text) / 100 };
  return read;
}

// ---------------------------------------------------------------------------------------------
// Dates

/** Month names in the engine's languages, longest first so "september" is not read as "sep". */
const MONTH = `(${[...MONTH_NUMBERS.keys()].sort((a, b) => b.length - a.length).join('|')})`;
const monthOf = (name: string) => MONTH_NUMBERS.get(monthKey(name))!;
/** A time after a date: "T10:30", " 10:30:15", ", 10:30 pm". */
const TIME = /^(?:[T\s,]+)(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*(am|pm))?/i;

const DATE_PATTERNS: Array<{ re: RegExp; parts: (m: RegExpExecArray, order: 'mdy' | 'dmy') => [number, number, number] }> = [
  { re: /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/, parts: (m) => [+m[1]!, +m[2]!, +m[3]!] },
  { re: /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)/, parts: (m, order) => (order === 'dmy' ? [+m[3]!, +m[2]!, +m[1]!] : [+m[3]!, +m[1]!, +m[2]!]) },
  // Spaced slashes, as a form's date boxes print them: "08 / 02 / 23".
  { re: /^(\d{1,2}) ?\/ ?(\d{1,2}) ?\/ ?(\d{4}|\d{2})(?!\d)/, parts: (m, order) => (order === 'dmy' ? [+m[3]!, +m[2]!, +m[1]!] : [+m[3]!, +m[1]!, +m[2]!]) },
  // "19 april 2014", "7. Mai 2014", "5th of March 2024", "3 de julio de 2014", "02-JUL-15".
  { re: new RegExp(`^(\\d{1,2})(?:st|nd|rd|th|er|º)?[\\s\\-/.]+(?:of\\s+|de\\s+)?${MONTH}\\.?[\\s\\-/.,]+(?:de\\s+)?(\\d{4}|\\d{2})(?!\\d)`, 'i'), parts: (m) => [+m[3]!, monthOf(m[2]!), +m[1]!] },
  // "March 5, 2024", "August 3 , 2014".
  { re: new RegExp(`^${MONTH}\\.?[\\s\\-/.]+(\\d{1,2})(?:st|nd|rd|th)?\\s?,?[\\s\\-/.,]+(\\d{4})(?!\\d)`, 'i'), parts: (m) => [+m[3]!, monthOf(m[1]!), +m[2]!] },
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

/** A date (and a time after it) at the start of `text` → ISO parts and how many characters it used. */
export function parseDate(text: string, order: 'mdy' | 'dmy'): { iso: string; time?: string; length: number } | undefined {
  // Accents off ("février", "März"): letters stay one character each, so lengths still count words.
  if (/[^\x00-\x7f]/.test(text)) text = text.normalize('NFKD').replace(/\p{M}/gu, '');
  for (const { re, parts } of DATE_PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    let [y, mo, d] = parts(m, order);
    // A numeric date that only reads the other way round (13/03/2024 in a month-first document).
    if (mo > 12 && d <= 12) [mo, d] = [d, mo];
    if (y < 100) y += y < VALUE_WEIGHTS.twoDigitYearPivot ? 2000 : 1900;
    if (!validDate(y, mo, d)) continue;
    const iso = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
    const t = TIME.exec(text.slice(m[0].length));
    if (t) {
      let hour = Number(t[1]);
      if (t[4] && /pm/i.test(t[4]) && hour < 12) hour += 12;
      if (t[4] && /am/i.test(t[4]) && hour === 12) hour = 0;
      if (hour < 24 && Number(t[2]) < 60 && Number(t[3] ?? 0) < 60) return { iso, time: `${pad(hour)}:${t[2]}:${t[3] ?? '00'}`, length: m[0].length + t[0].length };
    }
    return { iso, length: m[0].length };
  }
  return undefined;
}

/** All dates among the words, each with the words that print it. */
function datesIn(words: XWord[], order: 'mdy' | 'dmy', limit: number): Array<{ iso: string; time?: string; words: XWord[] }> {
  const found: Array<{ iso: string; time?: string; words: XWord[] }> = [];
  for (let i = 0; i < words.length && found.length < limit; i++) {
    // A few words from here ("March 5, 2024 10:30 AM"), joined as printed with single spaces.
    const window = words.slice(i, i + VALUE_WEIGHTS.dateWords);
    const text = window.map((w) => w.text).join(' ');
    const date = parseDate(text.replace(/^[(\[]/, ''), order);
    if (!date) continue;
    const end = date.length + (/^[(\[]/.test(text) ? 1 : 0);
    let at = 0;
    const used: XWord[] = [];
    for (const w of window) {
      if (at >= end) break;
      used.push(w);
      at += w.text.length + 1;
    }
    found.push({ iso: date.iso, ...(date.time ? { time: date.time } : {}), words: used });
    i += used.length - 1;
  }
  return found;
}

function readDate(words: XWord[], leaf: LeafNode, traits: LeafTraits, order: 'mdy' | 'dmy'): Read | undefined {
  const dates = datesIn(words.slice(0, VALUE_WEIGHTS.dateRegionWords), order, VALUE_WEIGHTS.datesPerRegion);
  if (dates.length === 0) return undefined;
  const date = traits.rangeEnd === 'end' && dates.length > 1 ? dates[1]! : dates[0]!;
  const value = traits.dateTime ? `${date.iso}T${date.time ?? '00:00:00'}Z` : date.iso;
  // A date right where the value should start fits; one found further along less so.
  const first = words.indexOf(date.words[0]!);
  return { value, words: date.words, fit: first <= 1 ? 1 : VALUE_WEIGHTS.dateFurtherAlong };
}

// ---------------------------------------------------------------------------------------------
// Booleans

const TRUE_WORDS = new Set(['yes', 'y', 'true', 'x', '✓', '✔', '☑', '☒', '[x]', '(x)', 'checked', 'on', 'paid', 'si', 'oui', 'ja']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '☐', '□', '[]', '[ ]', '()', 'unchecked', 'off', 'none', 'unpaid', 'non', 'nein']);

export function booleanOf(text: string): boolean | undefined {
  const t = text.toLowerCase().replace(/[.,;:!]+$/, '');
  if (TRUE_WORDS.has(t)) return true;
  if (FALSE_WORDS.has(t)) return false;
  return undefined;
}

function readBoolean(words: XWord[]): Read | undefined {
  // "[ ]" may be printed as two words.
  if (words[0]?.text === '[' && words[1]?.text === ']') return { value: false, words: words.slice(0, 2), fit: 1 };
  for (let i = 0; i < Math.min(VALUE_WEIGHTS.booleanWords, words.length); i++) {
    const value = booleanOf(words[i]!.text);
    if (value !== undefined) return { value, words: [words[i]!], fit: i === 0 ? 1 : VALUE_WEIGHTS.booleanAfterSeparator };
    if (!/^[:=\-–]$/.test(words[i]!.text)) break;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Enums

function trigrams(text: string): Set<string> {
  const padded = `  ${text} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

function trigramSimilarity(a: string, b: string): number {
  const ga = trigrams(a);
  const gb = trigrams(b);
  let shared = 0;
  for (const g of ga) if (gb.has(g)) shared++;
  return (2 * shared) / (ga.size + gb.size || 1);
}

/** How well printed text names an enum option, 0..1 (exact 1; a currency sign for its code; shared stems; similar spelling). */
export function optionSimilarity(text: string, option: unknown): number {
  if (typeof option !== 'string' && typeof option !== 'number') return 0;
  const symbol = /^[$€£¥₹₩₽₺₪฿₱]/.exec(text.trim())?.[0];
  if (symbol && SYMBOL_CODES[symbol] === String(option).toUpperCase()) return VALUE_WEIGHTS.optionCurrencySign;
  const printed = normalizeToken(text);
  const wanted = normalizeToken(String(option));
  if (printed === '' || wanted === '') return 0;
  if (printed === wanted) return 1;
  const stemsA = textStems(text);
  const stemsB = textStems(String(option));
  if (stemsA.length > 0 && stemsB.length > 0) {
    const shared = stemsA.filter((s) => stemsB.includes(s)).length;
    const dice = (2 * shared) / (stemsA.length + stemsB.length);
    if (dice >= VALUE_WEIGHTS.optionStemOverlap) return VALUE_WEIGHTS.optionSameStems;
    if (dice >= VALUE_WEIGHTS.optionSomeStems) return VALUE_WEIGHTS.optionStemsFactor * dice;
  }
  // Abbreviations and misspellings ("Cancelled" / "canceled", "delivrd"): letters in common, or few edits.
  const similar = Math.max(trigramSimilarity(printed, wanted), Math.min(printed.length, wanted.length) >= VALUE_WEIGHTS.optionEditLetters ? editSimilarity(printed, wanted) : 0);
  return similar >= VALUE_WEIGHTS.optionSpelling ? VALUE_WEIGHTS.optionSpellingFactor * similar : 0;
}

/** 1 − Levenshtein distance / the longer length. */
function editSimilarity(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > Math.max(a.length, b.length) / 2) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return 1 - previous[b.length]! / Math.max(a.length, b.length);
}

function readEnum(words: XWord[], leaf: LeafNode): Read | undefined {
  const options = leaf.enum ?? [];
  let best: Read | undefined;
  // Spans of one to three words among the first few: the option as printed.
  for (let i = 0; i < Math.min(words.length, VALUE_WEIGHTS.enumWords); i++) {
    for (let n = 1; n <= VALUE_WEIGHTS.enumSpanWords && i + n <= words.length; n++) {
      const span = words.slice(i, i + n);
      const text = span.map((w) => w.text).join(' ').replace(/[:;,.]+$/, '');
      for (const option of options) {
        let similarity = optionSimilarity(text, option);
        if (typeof option === 'number') similarity = parseNumber(text)?.value === option ? 1 : 0;
        if (typeof option === 'boolean') similarity = booleanOf(text) === option ? 1 : 0;
        // Later spans count a little less: the value normally comes first.
        const fit = similarity * (i === 0 ? 1 : VALUE_WEIGHTS.enumLaterSpan);
        if (fit > (best?.fit ?? VALUE_WEIGHTS.enumMinFit)) best = { value: option, words: span, fit };
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Strings

const SEPARATOR = /^[:=\-–—#|]+$/;
const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/i;

/** Trims outer punctuation a value does not include (a trailing comma, a leading "#" of "#: 5"). */
function cleanText(text: string): string {
  return text.replace(/^[\s:;,#]+|[\s:;,]+$/g, '').trim();
}

/** A blank's placeholder of zeros ("0000000000", "00000-0000"): it numbers nothing, no document is numbered so. */
export const isPlaceholderCode = (code: string) => /^[0\s./-]+$/.test(code);

function readString(words: XWord[], leaf: LeafNode, traits: LeafTraits): Read | undefined {
  let start = 0;
  while (start < words.length && SEPARATOR.test(words[start]!.text)) start++;
  const region = words.slice(start);
  if (region.length === 0) return undefined;

  if (leaf.format === 'email') {
    const word = region.find((w) => EMAIL.test(w.text));
    return word ? { value: EMAIL.exec(word.text)![0], words: [word], fit: 1 } : undefined;
  }
  if (leaf.format === 'uri') {
    const word = region.find((w) => /^(https?:\/\/|www\.)/i.test(w.text));
    if (!word) return undefined;
    const url = cleanText(word.text);
    return { value: /^www\./i.test(url) ? `https://${url}` : url, words: [word], fit: 1 };
  }

  // A label without its value ("Invoice Number:" read as the value of "Bill To:") is no value.
  if (region.every((w) => w.text.endsWith(':')) || (region.length <= VALUE_WEIGHTS.labelOnlyWords && region[region.length - 1]!.text.endsWith(':'))) return undefined;

  if (traits.identifier) {
    // A code: one token with a digit, or a short prefix and digits ("INV 0042"), and any further
    // digit groups it is printed in ("NLF 7733 9120 44").
    const first = region[0]!;
    let used: XWord[] | undefined;
    if (/\d/.test(first.text)) used = [first];
    else if (region[1] && /^[A-Z]{1,4}[-.]?$/.test(first.text) && /\d/.test(region[1].text)) used = [first, region[1]];
    else if (/^[A-Z][A-Z0-9-]{2,}$/.test(first.text) && !region[1]) return { value: cleanText(first.text), words: [first], fit: VALUE_WEIGHTS.codeWithoutDigit };
    if (!used) return { value: cleanText(region.slice(0, VALUE_WEIGHTS.codeFallbackWords).map((w) => w.text).join(' ')), words: region.slice(0, VALUE_WEIGHTS.codeFallbackWords), fit: VALUE_WEIGHTS.codeFallback };
    while (used.length < VALUE_WEIGHTS.codeWords && region[used.length] && /^\d{2,6}$/.test(region[used.length]!.text) && /\d$/.test(used[used.length - 1]!.text)) used.push(region[used.length]!);
    const code = cleanText(used.map((w) => w.text).join(' '));
    if (isPlaceholderCode(code)) return undefined;
    return { value: code, words: used, fit: used.length === 1 || /\d/.test(first.text) ? 1 : VALUE_WEIGHTS.codeWithPrefix };
  }

  const limit = traits.freeText ? VALUE_WEIGHTS.freeTextWords : traits.name ? VALUE_WEIGHTS.nameWords : VALUE_WEIGHTS.stringWords;
  const used = region.slice(0, limit);
  const value = cleanText(used.map((w) => w.text).join(' '));
  if (value === '') return undefined;
  let fit = region.length > limit ? VALUE_WEIGHTS.stringTooLong : used.length <= VALUE_WEIGHTS.stringManyWords || traits.freeText ? 1 : VALUE_WEIGHTS.stringLong;
  // A name is words, not a number or an amount.
  if (traits.name && !/\p{L}{2}/u.test(value)) fit *= VALUE_WEIGHTS.nameWithoutLetters;
  // A string field that is not a date should not take a date or an amount as its whole value.
  if (!traits.date && leaf.type === 'string' && used.length === 1 && parseNumber(value) && /[.,]\d{2}$/.test(value)) fit *= VALUE_WEIGHTS.stringIsAmount;
  return { value, words: used, fit };
}

// ---------------------------------------------------------------------------------------------

/**
 * The value of `leaf` read from `words` (what follows its label, a cell, a line below). A value that
 * would not validate against the leaf is no value; for patterns, single words are tried as well.
 */
export function readValue(words: XWord[], leaf: LeafNode, traits: LeafTraits, dateOrder: 'mdy' | 'dmy'): Read | undefined {
  if (words.length === 0) return undefined;
  let read: Read | undefined;
  if (leaf.enum && leaf.enum.length > 0) read = readEnum(words, leaf);
  else if (leaf.type === 'number' || leaf.type === 'integer') read = readNumber(words, leaf, traits);
  else if (leaf.type === 'boolean') read = readBoolean(words);
  else if (leaf.type === 'null') read = undefined;
  else if (traits.date) {
    read = readDate(words, leaf, traits, dateOrder);
    // A date-like name with no format: an unparsed date is still the printed text, less sure.
    if (!read && !leaf.format) {
      const text = readString(words, leaf, traits);
      if (text && /\d/.test(String(text.value))) read = { ...text, fit: text.fit * VALUE_WEIGHTS.unparsedDate };
    }
  } else if (traits.currency && leaf.type === 'string') {
    const code = words.slice(0, VALUE_WEIGHTS.currencyWords).find((w) => CURRENCY_CODES.has(w.text.replace(/[():,]/g, '')) || /^[$€£¥₹]/.test(w.text));
    if (code) {
      const printed = code.text.replace(/[():,]/g, '');
      read = { value: CURRENCY_CODES.has(printed) ? printed : (SYMBOL_CODES[printed[0]!] ?? printed), words: [code], fit: 1 };
    } else read = currencyNamed(words.slice(0, VALUE_WEIGHTS.currencyNameWords));
  } else read = readString(words, leaf, traits);

  if (read && leafAccepts(leaf, read.value)) return read;
  // A pattern or length bound the whole text misses may be met by one of its words ("Ref: ABC-123 (old)").
  if (leaf.type === 'string' && !leaf.enum && (leaf.pattern || leaf.maxLength !== undefined)) {
    for (const word of words.slice(0, VALUE_WEIGHTS.patternWords)) {
      const text = cleanText(word.text);
      if (text && leafAccepts(leaf, text)) return { value: text, words: [word], fit: VALUE_WEIGHTS.patternWord };
    }
  }
  return undefined;
}

/**
 * A currency named in words ("US Dollars", "Ringgit Malaysia"), as its code; nothing else printed under a
 * currency label is one (a form's box number "35", the next line's "Total: 990.00").
 */
function currencyNamed(words: XWord[]): Read | undefined {
  // The longest name printed ("ringgit malaysia" over "ringgit").
  const best = currencyNamesIn(words.map((w) => w.text)).reduce<{ code: string; name: string } | undefined>((a, b) => (b.name.length > (a?.name.length ?? 0) ? b : a), undefined);
  return best ? { value: best.code, words, fit: VALUE_WEIGHTS.currencyNamed } : undefined;
}

/** Whether a word is a currency mark, and the code it stands for (pattern candidates of currency fields). */
export function currencyOf(text: string): string | undefined {
  const bare = text.replace(/[():,]/g, '');
  if (CURRENCY_CODES.has(bare)) return bare;
  const symbol = /^-?([$€£¥₹])\d/.exec(bare)?.[1];
  return symbol ? SYMBOL_CODES[symbol] : undefined;
}

export { EMAIL };
