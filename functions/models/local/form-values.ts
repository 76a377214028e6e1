/**
 * The local engine's form filler (API §8): which value of the instructions goes in which field.
 *
 * 1. The instructions become facts — a name, its context (the enclosing keys or section header), an
 *    ordinal (the 2nd owner), and the value(s): from a JSON document (nested objects and arrays), from
 *    `key: value` lines, or from free-text clauses ("the name is …", "set … to …", "tick …").
 * 2. Every (fact, field) pair is scored by the overlap of their words (stems, a few synonyms), the
 *    context as a tie-breaker; ordinals must agree, so the 2nd owner's name only goes to a field
 *    that says 2 (or to an unnumbered field when it is the 1st).
 * 3. Pairs are taken best first, each field once, each fact once (an array fact once per value).
 *    A field nothing matched stays null: a value is never written somewhere arbitrary.
 *
 * Checkboxes take booleans ("yes", "true", "x"), or a string value that names their option
 * ("account type: Joint" ticks the box labelled "Account type: Joint" and clears its siblings).
 * Dates and amounts are formatted as the field's label suggests (MM/DD/YYYY, $).
 */
import type { FillField, FillRequest, FillResult, FormFiller } from '../engine.ts';
import { STOP_WORDS, stemOf } from './text.ts';

interface Fact {
  /** Stems of the value's own name ("first name" → first, name). */
  name: string[];
  /** Stems of the enclosing keys or section header. */
  context: string[];
  /** The normalized full path, for exact key matches ("owners.name", "owner1_name"). */
  path: string;
  ordinal: number | null;
  values: string[];
  /** The name's words run together, compared with labels OCR read without a space. */
  squash: string;
  /** A value given as a boolean (or yes/no): it ticks or clears a checkbox. */
  bool: boolean | null;
}

interface FieldText {
  all: string[];
  /** The label part before ":" for checkbox options ("Account type: Joint" → account type). */
  group: string[];
  /** The group's words run together ("accounttype"): OCR sometimes loses a space. */
  groupSquash: string;
  /** The option part after the last ":" (or the whole label). */
  option: string;
  ordinal: number | null;
  key: string;
}

const MAX_FACTS = 5_000;
const MATCH_THRESHOLD = 0.5;

const FORM_STOP_WORDS = new Set(['please', 'enter', 'print', 'here', 'field', 'box', 'optional', 'required', 'applicable', 'mm', 'dd', 'yyyy', 'yy', 'format', 'option', 'options', 'check', 'tick', 'one']);

const ORDINAL_WORDS: Record<string, number> = { second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10 };

/** Phrases that mean the same on forms, rewritten to one spelling before words are compared. */
const SYNONYMS: Array<[RegExp, string]> = [
  [/\b(date of birth|birth ?date|birthday|d\.o\.b\.?)\b/g, 'dob'],
  [/\b(postal code|post code|postcode|zip code|zipcode)\b/g, 'zip'],
  [/\b(telephone|tel|mobile|cell phone|cellphone|phone number)\b/g, 'phone'],
  [/\be-mail( address)?\b/g, 'email'],
  [/\bemail address\b/g, 'email'],
  [/\b(surname|family name)\b/g, 'last name'],
  [/\b(given name|forename)\b/g, 'first name'],
  [/\bsocial security( number| no)?\b/g, 'ssn'],
  [/\b(street address|address line)\b/g, 'address'],
];

/** Words of a key or label: camelCase, snake_case, dots and digits split; "2nd" → 2. */
function words(text: string): string[] {
  let t = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\b(\d+)(st|nd|rd|th)\b/g, '$1')
    .replace(/[_\-./\\]+/g, ' ');
  t = t.replace(/([a-z])(\d)/g, '$1 $2').replace(/(\d)([a-z])/g, '$1 $2');
  for (const [pattern, replacement] of SYNONYMS) t = t.replace(pattern, replacement);
  return t.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Content stems and the ordinal (a small number or "second"…) of a text. */
function analyse(text: string): { stems: string[]; ordinal: number | null } {
  const stems: string[] = [];
  let ordinal: number | null = null;
  const all = words(text);
  for (const [i, w] of all.entries()) {
    // "first owner" is an ordinal; "first name" is a name.
    if (w === 'first' && all[i + 1] !== undefined && all[i + 1] !== 'name' && all[i + 1] !== 'names') {
      ordinal ??= 1;
      continue;
    }
    if (/^\d+$/.test(w) && Number(w) >= 1 && Number(w) <= 20) {
      ordinal ??= Number(w);
      continue;
    }
    if (ORDINAL_WORDS[w] !== undefined) {
      ordinal ??= ORDINAL_WORDS[w]!;
      continue;
    }
    if (STOP_WORDS.has(w) || FORM_STOP_WORDS.has(w)) continue;
    stems.push(stemOf(w));
  }
  return { stems, ordinal };
}

const normalizedKey = (text: string) => words(text).join('_');

// ---- instructions → facts ----

function boolOf(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (['true', 'yes', 'y', 'x', '✓', '✔', 'checked', 'ticked', 'on', 'selected'].includes(v)) return true;
  if (['false', 'no', 'n', 'unchecked', 'off', 'none'].includes(v)) return false;
  return null;
}

function makeFact(names: string[], indexes: number[], rawValues: unknown[], explicitBool: boolean | null = null): Fact | undefined {
  const values = rawValues.filter((v) => v !== null && v !== undefined && String(v).trim() !== '').map((v) => String(v).trim());
  if (values.length === 0) return undefined;
  const last = names.at(-1) ?? '';
  const own = analyse(last);
  const context = names.slice(0, -1).map(analyse);
  const ordinal = indexes.length > 0 ? indexes.at(-1)! + 1 : (own.ordinal ?? context.map((c) => c.ordinal).findLast((o) => o !== null) ?? null);
  const bool = explicitBool ?? (rawValues.length === 1 && typeof rawValues[0] === 'boolean' ? (rawValues[0] as boolean) : values.length === 1 ? boolOf(values[0]!) : null);
  return { name: own.stems, squash: words(last).join(''), context: context.flatMap((c) => c.stems), path: normalizedKey(names.join(' ')), ordinal, values, bool };
}

function factsOfJson(root: unknown): Fact[] {
  const facts: Fact[] = [];
  const walk = (node: unknown, names: string[], indexes: number[]) => {
    if (facts.length >= MAX_FACTS) return;
    if (Array.isArray(node)) {
      if (node.every((item) => item === null || typeof item !== 'object')) {
        const fact = makeFact(names, indexes, node);
        if (fact) facts.push(fact);
        return;
      }
      node.forEach((item, i) => walk(item, names, [...indexes, i]));
      return;
    }
    if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) walk(child, [...names, key], indexes);
      return;
    }
    const fact = makeFact(names, indexes, [node]);
    if (fact) facts.push(fact);
  };
  walk(root, [], []);
  return facts;
}

const unquoted = (value: string) => value.trim().replace(/^["'“‘](.*)["'”’]$/, '$1').trim();
/** A value without its quotes; a clause's final full stop goes (not an initial's: "Jane Q."). */
const cleanValue = (value: string) => value.trim().replace(/^["'“‘](.*)["'”’]$/, '$1').replace(/(?<![\s.][A-Z]|\.\w)\.$/, '').trim();

/** One clause of free text or one `key: value` line → a fact, or a section header (name only). */
function clauseOf(clause: string): { name: string; value: string | null; bool?: boolean } | undefined {
  const text = clause.trim().replace(/^([-*•]|\d+[.)])\s+/, '').replace(/^#+\s*/, '');
  if (text === '') return undefined;
  let m = /^(?:please\s+)?set\s+(?:the\s+)?(.+?)\s+to\s+(.+)$/i.exec(text);
  if (m) return { name: m[1]!, value: cleanValue(m[2]!) };
  m = /^(?:please\s+)?(?:check|tick|select|mark)\s+(?:the\s+)?(?:box\s+)?(?:for\s+|labelled\s+|labeled\s+)?(.+)$/i.exec(text);
  if (m) return { name: m[1]!.replace(/\s+box$/i, ''), value: 'true', bool: true };
  m = /^([^:=]{1,100}?)\s*[:=]\s*(.*)$/.exec(text);
  if (m) return { name: m[1]!, value: m[2]!.trim() === '' ? null : cleanValue(m[2]!) };
  m = /^(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?(.{1,100}?)\s+(?:is|are|should be|will be|=)\s+(.+)$/i.exec(text);
  if (m) return { name: m[1]!, value: cleanValue(m[2]!) };
  // A short line without a value ("Second owner") may head the lines that follow.
  if (text.length <= 40 && !/[.!?]$/.test(text)) return { name: text, value: null };
  return undefined;
}

function factsOfText(instructions: string): Fact[] {
  const facts: Fact[] = [];
  let header: string | null = null;
  for (const line of instructions.split(/\r?\n/)) {
    if (facts.length >= MAX_FACTS) break;
    if (line.trim() === '') {
      header = null;
      continue;
    }
    // A `key: value` line is one fact, whatever its value says (sentences, commas).
    const keyed = /^\s*(?:[-*•]\s*)?([^:=]{1,80}?)\s*[:=]\s*(.*)$/.exec(line);
    if (keyed && keyed[1]!.trim().split(/\s+/).length <= 8) {
      const value = keyed[2]!.trim();
      if (value === '') {
        header = keyed[1]!.replace(/^#+\s*/, '');
        continue;
      }
      const fact = makeFact(header ? [header, keyed[1]!] : [keyed[1]!], [], [unquoted(value)]);
      if (fact) facts.push(fact);
      continue;
    }
    // Free text: clauses end at ";" or a sentence end, or at a comma before another "x is y".
    const clauses = line.split(/;\s*|(?<=[a-z0-9)"'])\.\s+|,\s+(?=(?:and\s+)?(?:the\s+|my\s+)?[\p{L}\s'’]{1,40}?\s(?:is|are)\s)/iu);
    for (const raw of clauses) {
      const clause = clauseOf(raw.replace(/^and\s+/i, ''));
      if (!clause) continue;
      if (clause.value === null) {
        header = clause.name;
        continue;
      }
      const fact = makeFact(header ? [header, clause.name] : [clause.name], [], [clause.value], clause.bool ?? null);
      if (fact) facts.push(fact);
    }
  }
  return facts;
}

export function factsOf(instructions: string): Fact[] {
  const trimmed = instructions.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return factsOfJson(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  return factsOfText(instructions);
}

// ---- scoring ----

function fieldTextOf(field: FillField): FieldText {
  const label = field.description.split(/\n| — | - \(/)[0] ?? '';
  const colon = label.lastIndexOf(':');
  const keyParts = analyse(field.key);
  const labelParts = analyse(label);
  return {
    all: [...new Set([...keyParts.stems, ...labelParts.stems])],
    group: colon > 0 ? analyse(label.slice(0, colon)).stems : [],
    groupSquash: colon > 0 ? words(label.slice(0, colon)).join('') : '',
    option: (colon > 0 ? label.slice(colon + 1) : label).trim() || field.key,
    ordinal: keyParts.ordinal ?? labelParts.ordinal,
    key: normalizedKey(field.key),
  };
}

/** How well a fact's name (and context) matches a set of field stems, 0..1. */
function overlap(fact: Fact, stems: string[]): number {
  if (fact.name.length === 0 || stems.length === 0) return 0;
  // Words run together ("Accounttype", as OCR may read it) still match.
  if (fact.name.join('') === stems.join('')) return 1;
  const set = new Set(stems);
  const matched = new Set(fact.name.filter((s) => set.has(s)));
  if (matched.size === 0) return 0;
  const contextMatched = fact.context.filter((s) => set.has(s) && !matched.has(s));
  const recall = matched.size / new Set(fact.name).size;
  const precision = Math.min(1, (matched.size + new Set(contextMatched).size) / set.size);
  return 0.6 * recall + 0.4 * precision;
}

function ordinalsAgree(fact: Fact, field: FieldText): number | undefined {
  if (fact.ordinal !== null && field.ordinal !== null) return fact.ordinal === field.ordinal ? 0.1 : undefined;
  if (fact.ordinal !== null) return fact.ordinal === 1 ? -0.05 : undefined;
  if (field.ordinal !== null) return field.ordinal === 1 ? -0.05 : undefined;
  return 0;
}

/** Similarity of two short texts (a value and an option label), 0..1. */
function textSimilarity(a: string, b: string): number {
  const x = normalizedKey(a);
  const y = normalizedKey(b);
  if (x === '' || y === '') return 0;
  if (x === y) return 1;
  const sa = new Set(analyse(a).stems);
  const sb = new Set(analyse(b).stems);
  if (sa.size === 0 || sb.size === 0) return 0;
  const common = [...sa].filter((s) => sb.has(s)).length;
  return (2 * common) / (sa.size + sb.size);
}

interface Candidate {
  fact: number;
  field: number;
  score: number;
  value: string;
}

function candidatesFor(fact: Fact, factIndex: number, field: FillField, fieldIndex: number, text: FieldText): Candidate[] {
  const bonus = ordinalsAgree(fact, text);
  if (bonus === undefined) return [];
  const exact = fact.path !== '' && fact.path === text.key ? 1 : 0;
  if (field.type === 'checkbox') {
    const out: Candidate[] = [];
    if (fact.bool !== null) {
      const score = exact || overlap(fact, text.all);
      if (score >= MATCH_THRESHOLD) out.push({ fact: factIndex, field: fieldIndex, score: score + exact + bonus, value: String(fact.bool) });
    }
    // A value naming this box's option ticks it, when the fact's name fits the box's group.
    const optionScore = Math.max(...fact.values.map((v) => textSimilarity(v, text.option)));
    if (optionScore >= 0.9) {
      const groupScore = text.group.length > 0 ? Math.max(overlap(fact, text.group), fact.squash === text.groupSquash ? 1 : 0) : overlap(fact, text.all) > 0 ? 1 : 0.5;
      if (groupScore >= MATCH_THRESHOLD) out.push({ fact: factIndex, field: fieldIndex, score: groupScore + optionScore + bonus, value: 'true' });
    }
    return out;
  }
  if (fact.bool !== null && fact.values.length === 1 && /^(true|false)$/i.test(fact.values[0]!)) return [];
  const score = exact || overlap(fact, text.all);
  if (score < MATCH_THRESHOLD) return [];
  const value = formatValue(fact.values, field);
  if (value === null) return [];
  return [{ fact: factIndex, field: fieldIndex, score: score + exact + bonus, value }];
}

// ---- formatting ----

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function parseDate(value: string): { y: number; m: number; d: number } | undefined {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T.*)?$/.exec(value);
  if (m) return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  m = /^(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS.findIndex((name) => name.startsWith(m![2]!.toLowerCase().slice(0, 3)));
    if (month >= 0) return { y: Number(m[3]), m: month + 1, d: Number(m[1]) };
  }
  m = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS.findIndex((name) => name.startsWith(m![1]!.toLowerCase().slice(0, 3)));
    if (month >= 0) return { y: Number(m[3]), m: month + 1, d: Number(m[2]) };
  }
  return undefined;
}

function formatDate(value: string, hint: string): string {
  const date = parseDate(value);
  if (!date) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  const sep = hint.includes('.') ? '.' : hint.includes('-') ? '-' : '/';
  const year = /y{4}/i.test(hint) ? String(date.y) : pad(date.y % 100);
  const order = hint.toLowerCase().replace(/[^dmy]/g, '');
  if (order.startsWith('y')) return [date.y, pad(date.m), pad(date.d)].join(sep);
  if (order.startsWith('d')) return [pad(date.d), pad(date.m), year].join(sep);
  return [pad(date.m), pad(date.d), year].join(sep);
}

function formatValue(values: string[], field: FillField): string | null {
  let value = values.join(', ');
  const label = `${field.description} ${field.key}`;
  const dateHint = /\b(mm|dd|yyyy|yy)([/.-])(mm|dd)\2(yyyy|yy|dd)\b/i.exec(label);
  if (dateHint && values.length === 1) value = formatDate(value, dateHint[0]);
  else if (values.length === 1 && /^-?\d+(\.\d+)?$/.test(value) && /\$|€|£|\bamount\b|\bincome\b|\bsalary\b|\bprice\b|\btotal\b|\bbalance\b|\bdeposit\b/i.test(label)) {
    value = Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  if (field.options && field.options.length > 0) {
    let best: string | null = null;
    let bestScore = 0.6;
    for (const option of field.options) {
      const score = textSimilarity(value, option);
      if (score > bestScore) [best, bestScore] = [option, score];
    }
    return best;
  }
  return value;
}

// ---- assignment ----

export function fillForm(request: FillRequest): FillResult {
  const facts = factsOf(request.instructions);
  const texts = request.fields.map(fieldTextOf);
  const candidates: Candidate[] = [];
  facts.forEach((fact, f) => {
    request.fields.forEach((field, i) => candidates.push(...candidatesFor(fact, f, field, i, texts[i]!)));
  });
  // Best first; ties go to the earlier field, then the earlier fact (reading order).
  candidates.sort((a, b) => b.score - a.score || a.field - b.field || a.fact - b.fact);
  const values: Array<string | null> = request.fields.map(() => null);
  const uses = facts.map(() => 0);
  const ticked = new Map<number, number[]>();
  for (const c of candidates) {
    if (values[c.field] !== null) continue;
    const fact = facts[c.fact]!;
    const isOptionTick = request.fields[c.field]!.type === 'checkbox' && fact.bool === null;
    if (uses[c.fact]! >= (isOptionTick ? fact.values.length : 1)) continue;
    values[c.field] = c.value;
    uses[c.fact]!++;
    if (isOptionTick) ticked.set(c.fact, [...(ticked.get(c.fact) ?? []), c.field]);
  }
  // A choice made in a group clears the group's other boxes (same group label).
  for (const fields of ticked.values()) {
    const groups = new Set(fields.map((i) => texts[i]!.group.join(' ')).filter((g) => g !== ''));
    request.fields.forEach((field, i) => {
      if (field.type === 'checkbox' && values[i] === null && groups.has(texts[i]!.group.join(' ')) && texts[i]!.ordinal === texts[fields[0]!]!.ordinal) values[i] = 'false';
    });
  }
  return { values };
}

export const localFormFiller: FormFiller = {
  async fill(request) {
    return fillForm(request);
  },
};
