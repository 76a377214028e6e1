/**
 * What a CSV cell is (API §10 cell semantics) and which JSON Schema types and formats its text fits.
 * Pure string predicates written as character loops: they run on every cell of million-row files.
 */

/** A cell as the reader hands it over: null is a field with nothing between the delimiters. */
export type RawCell = string | null;

export const enum CellKind {
  Null = 0,
  Empty = 1,
  Value = 2,
}

/** Whether `s[start, end)` is the ASCII `word`. */
function isWordAt(s: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (s.charCodeAt(start + i) !== word.charCodeAt(i)) return false;
  return true;
}

/** `null`, `NULL`, `NA`, `N/A` (quoted or not) mean "no value", like a field with nothing in it. */
export function isNullToken(s: string, start = 0, end = s.length): boolean {
  switch (end - start) {
    case 2:
      return isWordAt(s, start, end, 'NA');
    case 3:
      return isWordAt(s, start, end, 'N/A');
    case 4:
      return isWordAt(s, start, end, 'null') || isWordAt(s, start, end, 'NULL');
    default:
      return false;
  }
}

function isBlank(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12 && c !== 0xa0) return false;
  }
  return true;
}

/** Null: nothing between the delimiters or a null token. Empty: `""` or only white space. */
export function cellKind(cell: RawCell): CellKind {
  return cell === null ? CellKind.Null : textKind(cell, 0, cell.length);
}

/** The kind of the text `s[start, end)` of a field that was not empty: a null token, blank, or a value. */
export function textKind(s: string, start: number, end: number): CellKind {
  if (isNullToken(s, start, end)) return CellKind.Null;
  if (isBlank(s, start, end)) return CellKind.Empty;
  return CellKind.Value;
}

/**
 * Negative, zero or positive as the text `s[start, end)` sorts before, with or after `b`: the order of
 * `<` on strings (UTF-16 code units), without making a string of the text.
 */
export function compareText(s: string, start: number, end: number, b: string): number {
  const length = end - start;
  const n = length < b.length ? length : b.length;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(start + i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return length - b.length;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** `[+-]?digits` */
export function isIntegerText(s: string): boolean {
  let i = 0;
  const n = s.length;
  if (n === 0) return false;
  const first = s.charCodeAt(0);
  if (first === 43 || first === 45) i = 1;
  if (i === n) return false;
  for (; i < n; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/** Set by `plainNumber`: whether the text it read had no fraction. */
export const plainNumberInfo = { integer: false };
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * The value of a plain decimal `[+-]?digits[.digits]`, the text `s[start, end)` (NaN for anything else,
 * e.g. exponents, or more than 15 significant digits). Exact: the digits form an integer below 2^53 and
 * 10^k (k ≤ 22) is exact, so one correctly rounded division gives what `Number(text)` gives — without
 * its cost.
 */
export function plainNumber(s: string, start = 0, end = s.length): number {
  const n = end;
  let i = start;
  let negative = false;
  const first = s.charCodeAt(start);
  if (first === 45 || first === 43) {
    negative = first === 45;
    i = start + 1;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 && fraction < 0) fraction = 0;
    else return NaN;
  }
  if (digits === 0 || digits > 15) return NaN;
  plainNumberInfo.integer = fraction < 0;
  const value = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction]! : mantissa;
  return negative ? -value : value;
}

/** A decimal number: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?` */
export function isNumberText(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (n === 0) return false;
  let c = s.charCodeAt(0);
  if (c === 43 || c === 45) i = 1;
  let digits = 0;
  while (i < n && isDigit(s.charCodeAt(i))) {
    i++;
    digits++;
  }
  if (i < n && s.charCodeAt(i) === 46) {
    i++;
    while (i < n && isDigit(s.charCodeAt(i))) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < n) {
    c = s.charCodeAt(i);
    if (c !== 101 && c !== 69) return false;
    i++;
    if (i < n && (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45)) i++;
    let exponentDigits = 0;
    while (i < n && isDigit(s.charCodeAt(i))) {
      i++;
      exponentDigits++;
    }
    if (exponentDigits === 0 || i !== n) return false;
  }
  return true;
}

/** Whether `s[start, end)` equals the lower-case ASCII word `word` in any letter case. */
function equalsIgnoringCase(s: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if ((s.charCodeAt(start + i) | 32) !== word.charCodeAt(i)) return false;
  return true;
}

/** `true` / `false` in any letter case (the text `s[start, end)`). */
export function isBooleanText(s: string, start = 0, end = s.length): boolean {
  return equalsIgnoringCase(s, start, end, 'true') || equalsIgnoringCase(s, start, end, 'false');
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digitsAt(s: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) return -1;
    value = value * 10 + (c - 48);
  }
  return value;
}

/** Whether s[start..start+10) is a real calendar day `YYYY-MM-DD`. */
function isDateAt(s: string, start: number): boolean {
  if (s.charCodeAt(start + 4) !== 45 || s.charCodeAt(start + 7) !== 45) return false;
  const year = digitsAt(s, start, 4);
  const month = digitsAt(s, start + 5, 2);
  const day = digitsAt(s, start + 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  if (day > DAYS_IN_MONTH[month - 1]!) return false;
  if (month === 2 && day === 29) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return true;
}

/** `YYYY-MM-DD`, a real calendar day (the text `s[start, end)`). Such strings sort chronologically as text. */
export function isDateText(s: string, start = 0, end = s.length): boolean {
  return end - start === 10 && isDateAt(s, start);
}

/** `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]][Z|±HH:MM]` (no offset is read as UTC), the text `s[start, end)`. */
export function isDateTimeText(s: string, start = 0, end = s.length): boolean {
  const n = end;
  if (n - start < 16 || !isDateAt(s, start)) return false;
  const sep = s.charCodeAt(start + 10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return false;
  const hour = digitsAt(s, start + 11, 2);
  const minute = digitsAt(s, start + 14, 2);
  if (s.charCodeAt(start + 13) !== 58 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
  let i = start + 16;
  if (i < n && s.charCodeAt(i) === 58) {
    if (i + 3 > n) return false;
    const second = digitsAt(s, i + 1, 2);
    if (second < 0 || second > 60) return false;
    i += 3;
    if (i < n && s.charCodeAt(i) === 46) {
      i++;
      const from = i;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
      if (i === from) return false;
    }
  }
  if (i === n) return true;
  const z = s.charCodeAt(i);
  if ((z === 90 || z === 122) && i + 1 === n) return true;
  if ((z === 43 || z === 45) && i + 6 === n && s.charCodeAt(i + 3) === 58) {
    const oh = digitsAt(s, i + 1, 2);
    const om = digitsAt(s, i + 4, 2);
    return oh >= 0 && oh <= 23 && om >= 0 && om <= 59;
  }
  return false;
}

/** Milliseconds since the epoch of a text that passed `isDateTimeText` (no offset: UTC). */
export function dateTimeMillis(s: string): number {
  let text = s.length > 10 && s.charCodeAt(10) === 32 ? `${s.slice(0, 10)}T${s.slice(11)}` : s;
  const last = text.charCodeAt(text.length - 1);
  const hasOffset = last === 90 || last === 122 || (text.length >= 6 && (text.charCodeAt(text.length - 6) === 43 || text.charCodeAt(text.length - 6) === 45) && text.charCodeAt(text.length - 3) === 58);
  if (!hasOffset) text += 'Z';
  return Date.parse(text);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmailText(s: string): boolean {
  return EMAIL.test(s);
}

const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;
export function isUriText(s: string): boolean {
  if (!URI.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}
