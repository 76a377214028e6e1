/**
 * Schema generation: what JSON type a printed value is (integer, number, date, date-time, boolean,
 * e-mail, phone, string), and that value normalized the way the local extractor reads it. Reuses
 * the extractor's own readers (./extract-values.ts) so a generated schema reads back the same values.
 */
import { booleanOf, EMAIL, parseDate, parseNumber } from './extract-values.ts';
import { INFER_SETTINGS } from './weights/infer-schema.ts';

export type ValueKind = 'integer' | 'number' | 'date' | 'date-time' | 'boolean' | 'email' | 'phone' | 'string';

export interface TypedValue {
  kind: ValueKind;
  /** The value as the extractor returns it (ISO dates, numbers without separators, booleans). */
  value: unknown;
  /** The printed value was a percentage ("8%"). */
  percent?: boolean;
  /** The printed value carried a currency sign or code. */
  money?: boolean;
}

/** Only unambiguous boolean words: "x", "n", "on", "paid" are too often something else. */
const BOOLEAN_WORDS = /^(yes|no|true|false|checked|unchecked|y\/n|[☑☒☐✓✔□]|\[x\]|\[ \])$/i;
const CURRENCY = /[$€£¥₹]|\b(USD|EUR|GBP|JPY|CHF|CAD|AUD|INR)\b/;
/** Label words of identifiers: their values stay strings even when all digits. */
const IDENTIFIER_LABEL = /\b(number|no|num|id|code|ref|reference|account|acct|iban|swift|bic|sku|zip|postcode|postal|phone|tel|telephone|mobile|fax|#)\b|#/i;
const PHONE_LABEL = /\b(phone|tel|telephone|mobile|cell|fax)\b/i;

/** The type and normalized value of a printed value; `label` helps (identifiers, phones). */
export function typeValue(raw: string, label = ''): TypedValue {
  const text = raw.trim().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'string', value: '' };
  if (BOOLEAN_WORDS.test(text)) {
    const value = booleanOf(text) ?? (/^(\[x\]|☑|☒|✓|✔)$/i.test(text) ? true : false);
    return { kind: 'boolean', value };
  }
  const email = EMAIL.exec(text);
  if (email && email[0].length === text.replace(/[.,;]$/, '').length) return { kind: 'email', value: email[0] };
  const digits = text.replace(/\D/g, '').length;
  if (PHONE_LABEL.test(label) && digits >= INFER_SETTINGS.labelledPhoneDigits && /^\+?[\d\s().-]+$/.test(text)) return { kind: 'phone', value: text };
  if (/^\+\d[\d\s().-]{6,}$/.test(text) && digits >= INFER_SETTINGS.phoneDigits) return { kind: 'phone', value: text };
  const date = parseDate(text, 'mdy');
  if (date && text.slice(date.length).trim() === '') {
    return date.time ? { kind: 'date-time', value: `${date.iso}T${date.time}Z` } : { kind: 'date', value: date.iso };
  }
  const identifier = IDENTIFIER_LABEL.test(label);
  const number = parseNumber(text);
  if (number && !(identifier && !CURRENCY.test(text) && !/[.,]\d{2}$/.test(text))) {
    const value = Math.round(number.value * 1e9) / 1e9;
    const money = CURRENCY.test(text);
    // "1,250.00" is an amount (number) even when whole; "42" and "1,250" are integers.
    const integer = Number.isInteger(value) && !/[.,]\d{1,2}%?$/.test(text.replace(/[^\d.,%]/g, '')) && !money && !number.percent;
    return { kind: integer ? 'integer' : 'number', value, ...(number.percent ? { percent: true } : {}), ...(money ? { money: true } : {}) };
  }
  return { kind: 'string', value: text };
}

/** Two dates printed as a range ("03/01/2024 - 03/31/2024", "1 Mar 2024 to 31 Mar 2024"). */
export function dateRange(raw: string): [string, string] | undefined {
  const text = raw.trim().replace(/\s+/g, ' ');
  const first = parseDate(text, 'mdy');
  if (!first) return undefined;
  const rest = text.slice(first.length).replace(/^\s*(?:-|–|—|to|through|until)\s*/i, '');
  if (rest === text.slice(first.length)) return undefined;
  const second = parseDate(rest, 'mdy');
  if (!second || rest.slice(second.length).trim() !== '') return undefined;
  return [first.iso, second.iso];
}

/** The kind two observations widen to (integer+number → number; anything else mixed → string). */
export function widen(a: ValueKind, b: ValueKind): ValueKind {
  if (a === b) return a;
  if ((a === 'integer' && b === 'number') || (a === 'number' && b === 'integer')) return 'number';
  return 'string';
}

/** A value of one kind as another (after widening: numbers as their printed text for strings). */
export function coerce(typed: TypedValue, raw: string, kind: ValueKind): unknown {
  if (typed.kind === kind) return typed.value;
  if (kind === 'number' && typed.kind === 'integer') return typed.value;
  if (kind === 'string') return raw.trim().replace(/\s+/g, ' ');
  return typed.value;
}
