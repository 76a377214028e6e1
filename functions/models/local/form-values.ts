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
 * Dates and amounts are formatted as the field's label suggests (MM/DD/YYYY, JJ/MM/AAAA, TT.MM.JJJJ, $).
 *
 * 4. A value that cannot fit a field (its maxLength; a comb field drops spaces) is no candidate there;
 *    a date then loses its separators when that fits, and a digit string prefers the field whose
 *    length fits it closely. A unit the label prints ("Height (cm)") is left out of the value.
 * 5. Statements read against the form's own options (../knowledge/form-options.ts): "I am a woman", "I
 *    speak German, English and French" (boxes printed Deutsch, English, Français), "Oui, j'ai été
 *    indemnisée par …" (that question's 'oui' box), "je suis membre de la famille …" (the box saying so).
 * 6. "Fait à Lyon le 15/03/2024", "signed in Brussels on …": the signing place and date. A field in a
 *    section the fact does not name ranks below one it fits as well without it.
 * 7. "Write X in A, Y in B": the verb goes with the clauses after it; "…, I have …" starts a new
 *    statement; "a developer with 9 years of experience" is a clause. A list's option the text writes as
 *    printed ("from Sweden") chooses it; an abbreviation in brackets ("(FD)") matches the label printing
 *    it; a field name abbreviating a word ("A.NAT1": nature) is evidence; "de nature S" is a value of its own.
 */
import type { FillField, FillRequest, FillResult, FormFiller } from '../engine.ts';
import { ABBREVIATIONS, BARE_NAME_WORDS, FEMININE_ENDINGS, FIELD_CONCEPTS, FORM_PHRASES, NO_WORDS, YES_WORDS } from '../knowledge/form-phrases.ts';
import { DATE_LEAD_WORDS, DATED_WORDS, NEGATIONS, NUMBER_JOINING_WORDS, NUMBER_WORDS, OPTION_POSITIONS, OPTION_WORDS, PARTICIPLE_ENDINGS, PASSIVE_AGENTS, SELF_WORDS, SIGNING_VERBS, STATEMENT_WORDS } from '../knowledge/form-options.ts';
import { ENGLISH_MONTHS, MONTH_NUMBERS, monthKey } from '../knowledge/months.ts';
import { escapeRegExp, phrasePattern, stemOf, STOP_WORDS } from '../shared/words.ts';
import { FILL_WEIGHTS } from './weights/form-values.ts';

interface Fact {
  /** Stems of the value's own name ("first name" → first, name). */
  name: string[];
  /** Other names of the value, each as stems (a family name is also a bare "nom"). */
  alt: string[][];
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
  /** Abbreviations the name gives in brackets ("frais de déplacement (FD)" → FD). */
  acronyms: string[];
  /** Named by the form's own words without a verb ("CAP 40121"): it goes only to a field printing all of them. */
  printed?: boolean;
  /** The fact this one is a part of (a family name of a full name, a house number of a street line). */
  whole?: Fact;
  /** A statement read against the form's own options ("I am a woman"): the one field it names, and how surely. */
  target?: number;
  targetScore?: number;
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
  /** Stems of the section the field is in ("Spouse › First name" → spouse): they only add to a match. */
  section: string[];
  /** Stems of the title of the block the field is in ("Donateur"): a fact that names them ranks higher; one that does not, no lower. */
  block: string[];
  /** Stems of the field's name that are not its option's ("Language 1 Check Box" → language). */
  keyGroup: string[];
  /** Short words of the field's name that are no label word, read as abbreviations ("A.NAT1" → nat: nature). */
  abbrevs: string[];
  /** Capitals the label prints as a word ("5) FD"), matched by a fact that gives them in brackets. */
  acronyms: string[];
}

const FORM_STOP_WORDS = new Set(['please', 'enter', 'print', 'here', 'field', 'box', 'optional', 'required', 'applicable', 'mm', 'dd', 'yyyy', 'yy', 'format', 'option', 'options', 'check', 'tick', 'one']);

const plain = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const ORDINAL_WORDS: Record<string, number> = Object.assign({}, ...Object.values(FORM_PHRASES).map((p) => Object.fromEntries(Object.entries(p.ordinals).map(([w, n]) => [plain(w), n]))));
/** Function words of every language: they say nothing about which field is meant. */
const FUNCTION_WORDS = new Set(Object.values(FORM_PHRASES).flatMap((p) => p.functionWords.map(plain)));

/** A phrase of the knowledge file as a regex source: any spaces, either apostrophe. */
const phraseRe = (phrase: string) => phrasePattern(phrase).replace(/['’]/g, "['’]").replace(/"/g, '["“”„«»]');

/** Phrases that mean the same on forms, rewritten to one concept word before words are compared. */
const SYNONYMS: Array<[RegExp, string]> = [
  [/\bd o b\b/g, 'dob'],
  [/\bsocial security( number| no)?\b/g, 'ssn'],
  [/\b(street address|address line)\b/g, 'address'],
  ...Object.entries({ ...FIELD_CONCEPTS, ...OPTION_WORDS })
    .flatMap(([concept, phrases]) => phrases.map((phrase) => [plain(phrase).replace(/[^\p{L}\p{N}]+/gu, ' ').trim(), concept] as const))
    .sort((a, b) => b[0].length - a[0].length)
    .map(([phrase, concept]): [RegExp, string] => [new RegExp(`(?<![\\p{L}\\p{N}])${phrasePattern(phrase)}(?![\\p{L}\\p{N}])`, 'gu'), concept]),
];

/** Words of a key or label: camelCase, snake_case, dots and digits split; "2nd" → 2; accents off. */
function words(text: string): string[] {
  let t = plain(text.replace(/([a-z])([A-Z])/g, '$1 $2'))
    .replace(/\b(\d+)(st|nd|rd|th|e|er|re|eme|ème)\b/g, '$1')
    .replace(/[_\-./\\'’]+/g, ' ');
  t = t.replace(/([a-z])(\d)/g, '$1 $2').replace(/(\d)([a-z])/g, '$1 $2');
  t = ` ${t.split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ')} `;
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
    if (/^\d+$/.test(w) && Number(w) >= 1 && Number(w) <= FILL_WEIGHTS.maxOrdinal) {
      ordinal ??= Number(w);
      continue;
    }
    if (ORDINAL_WORDS[w] !== undefined && w !== 'first') {
      ordinal ??= ORDINAL_WORDS[w]!;
      continue;
    }
    // A range's word counts at the edge of a label ("Période du", "au"), not inside ("Clé du numéro").
    const kept = KEPT_WORDS.has(w) && (i === 0 || i === all.length - 1);
    if ((STOP_WORDS.has(w) || FORM_STOP_WORDS.has(w) || FUNCTION_WORDS.has(w) || KEPT_WORDS.has(w)) && !kept) continue;
    stems.push(stemOf(masculine(w)));
  }
  return { stems, ordinal };
}

/** A person noun as a label prints it: "donatrice" → "donateur", "antragstellerin" → "antragsteller". */
function masculine(word: string): string {
  for (const [feminine, masc] of FEMININE_ENDINGS.endings) {
    if (word.endsWith(feminine) && word.length - feminine.length >= FEMININE_ENDINGS.minLength) return word.slice(0, -feminine.length) + masc;
  }
  return word;
}

const normalizedKey = (text: string) => words(text).join('_');
const DATE_LEAD_SET = new Set(DATE_LEAD_WORDS);

// ---- instructions → facts ----

const YES = new Set(YES_WORDS);
const NO = new Set(NO_WORDS);

function boolOf(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  return null;
}

interface MakeOptions {
  bool?: boolean | null;
  /** Other names the value is known by (a family name is also a bare "nom" on French forms). */
  alt?: string[];
  /** Ordinal and context of the item the clause is about (the 2nd dependant), when its name has none. */
  ordinal?: number | null;
  context?: string[];
  printed?: boolean;
}

function makeFact(names: string[], indexes: number[], rawValues: unknown[], options: MakeOptions = {}): Fact | undefined {
  const values = rawValues.filter((v) => v !== null && v !== undefined && String(v).trim() !== '').map((v) => String(v).trim());
  if (values.length === 0) return undefined;
  const last = names.at(-1) ?? '';
  const own = analyse(last);
  // A name that is only a date's lead word ("Le : 15/03/2024", as a form prints "Fait à …, le") is a
  // date, as it is in a field's label.
  const lead = words(last);
  if (own.stems.length === 0 && lead.length === 1 && DATE_LEAD_SET.has(lead[0]!)) own.stems.push('date');
  const context = names.slice(0, -1).map(analyse);
  const ordinal = indexes.length > 0 ? indexes.at(-1)! + 1 : (own.ordinal ?? context.map((c) => c.ordinal).findLast((o) => o !== null) ?? options.ordinal ?? null);
  const explicitBool = options.bool ?? null;
  const bool = explicitBool ?? (rawValues.length === 1 && typeof rawValues[0] === 'boolean' ? (rawValues[0] as boolean) : values.length === 1 ? boolOf(values[0]!) : null);
  // A street is the first line of an address on forms that print "Address 1"; a date said with a
  // signing verb ("… et signe le 14/03/2024") is a date, the one beside a signature ("Le").
  const signed = own.stems.some((s) => SIGNING_STEMS.has(s)) && own.stems.every((s) => SIGNING_STEMS.has(s) || STATEMENT_STEMS.has(s)) && values.length === 1 && DATE_ONLY.test(values[0]!);
  const alt = [...(options.alt ?? []), ...(own.stems.join(' ') === 'street' ? ['address'] : []), ...(signed ? ['date'] : [])].map((a) => analyse(a).stems).filter((a) => a.length > 0);
  const acronyms = [...last.matchAll(/\((\p{Lu}{2,6})\)/gu)].map((m) => m[1]!);
  return { name: own.stems, alt, squash: words(last).join(''), context: [...context.flatMap((c) => c.stems), ...(options.context ?? [])], path: normalizedKey(names.join(' ')), ordinal, values, bool, acronyms, printed: options.printed };
}

function factsOfJson(root: unknown): Fact[] {
  const facts: Fact[] = [];
  const walk = (node: unknown, names: string[], indexes: number[]) => {
    if (facts.length >= FILL_WEIGHTS.maxFacts) return;
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

const ABBREVIATION_SET = new Set([...ABBREVIATIONS].map(plain));
/** A word whose full stop is part of it: an initial ("Q."), a dotted abbreviation ("S.A.", "r.l."), "Inc.". */
const abbreviated = (word: string) => /^\p{L}$/u.test(word) || /^(?:\p{L}{1,3}\.)+\p{L}{0,3}$/u.test(word) || ABBREVIATION_SET.has(plain(word));

/** A value quoted whole, without its quotes (not `« A » puis « B »`: two quoted parts, read by quotedParts). */
const unquoted = (value: string) => value.trim().replace(/^["'“‘„«]\s*([^"“”„«»]*?)\s*["'”’“»]$/, '$1').trim();
/** A value without its quotes; a clause's final full stop goes (not an initial's: "Jane Q."). */
const cleanValue = (value: string) => unquoted(withoutFullStop(value.trim()).replace(/\s*[!?]+$/, '')).trim();

function withoutFullStop(text: string): string {
  if (!text.endsWith('.')) return text;
  const word = /(\S*)\.$/.exec(text)![1]!.replace(/^[("'“‘]+/, '');
  return abbreviated(word) ? text : text.slice(0, -1).trimEnd();
}

// ---- the knowledge file, compiled ----

const ALL = Object.values(FORM_PHRASES);
const alternatives = (list: string[]) => [...new Set(list)].sort((a, b) => b.length - a.length).map(phraseRe).join('|');
const DETERMINERS = new RegExp(`^(?:(?:${alternatives(ALL.flatMap((p) => p.determiners))})(?:\\s+|(?<=['’])))+`, 'iu');
const ANAPHOR = new RegExp(`^(?:${alternatives(ALL.flatMap((p) => p.anaphors))})\\s`, 'iu');
const CONJUNCTION = new RegExp(`^(?:${alternatives(ALL.flatMap((p) => p.conjunctions))})\\s+`, 'iu');
const REQUEST = new RegExp(`^(?:${alternatives(ALL.flatMap((p) => p.requests))})[\\s,]+`, 'iu');
/** "… developer with 9 years of experience": the detail after the adjunct is a clause of its own. */
const ADJUNCT_SPLIT = new RegExp(`\\s+(?=(?:${alternatives(ALL.flatMap((p) => p.adjuncts))})\\s+\\d)`, 'iu');
/** "…, I have a Master's degree": the writer as subject starts a statement of its own. */
const SUBJECT_START = new RegExp(`^(?:${alternatives(ALL.flatMap((p) => p.subjects))})(?:\\s|(?<=['’]))`, 'iu');
const CONJUNCTION_SPLIT = new RegExp(`\\s+(?=(?:${alternatives(ALL.flatMap((p) => p.conjunctions))})\\s)`, 'iu');
const COPULA = new RegExp(`^(.{1,100}?)\\s+(?:${alternatives(ALL.flatMap((p) => p.copulas))}|=)\\s+(.+)$`, 'iu');
const LINK_VALUE = new RegExp(`^(\\p{Ll}[\\p{L}'’()\\s-]{1,60}?)\\s+(?:(?:${alternatives(ALL.flatMap((p) => p.links))})\\s+|(?<=\\s))?((?:\\d|["“„«]).*)$`, 'u');
/** A label ending in a noun and a short code in capitals ("rémunérations de nature S", "income of type B"). */
const CODED_NAME = new RegExp(`^(.*\\p{L}.*?)\\s+(?:(?:${alternatives(ALL.flatMap((p) => p.links))})\\s*)?(\\p{Ll}[\\p{L}-]{2,})\\s+(\\p{Lu}{1,3}\\d?)$`, 'u');
const RANGE_WORDS = ALL.flatMap((p) => p.ranges);
const DATE_LIKE = String.raw`\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\d{1,2}\.?\s+\p{L}+\.?\s+\d{4}`;
const RANGE = new RegExp(`(?:^|\\s)(${alternatives(RANGE_WORDS.map((r) => r[0]))})\\s+(${DATE_LIKE})\\s+(${alternatives(RANGE_WORDS.map((r) => r[1]))})\\s+(${DATE_LIKE})`, 'iu');
/** The words of a range ("du … au") stay in field words: a field labelled "au" is the range's end. */
const KEPT_WORDS = new Set(RANGE_WORDS.flat().map(plain).filter((w) => w.length >= 2 && !FUNCTION_WORDS.has(w)));
/** A signing verb, then "à <Place>[,] le <date>" (on accent-free text): the place and the date. */
const SIGNED_AT = new RegExp(
  `(?:^|\\s)(?:${SIGNING_VERBS.map((v) => `[${v[0]}${v[0]!.toUpperCase()}]${escapeRegExp(v.slice(1))}`).join('|')})\\b[^.;]{0,60}?\\s(?:à|a|in|at|en|te|em|zu|op)\\s+(\\p{Lu}[\\p{L}'’-]*(?:[\\s-]\\p{Lu}[\\p{L}'’-]*){0,3})(\\s*,?\\s+(?:(?:le|on|the|am|den|el|il|em|op|a)\\s+)?)(${DATE_LIKE})`,
  'u',
);
const SIGNATURE_STEMS = ['signatur'];
/** A field whose label says signature and not a date or place of signing. */
const isSignatureBox = (text: FieldText) => text.all.some((s) => SIGNATURE_STEMS.includes(s)) && !text.all.some((s) => s === 'date' || SIGN_PLACE_STEMS.includes(s));
const SIGNING_STEMS = new Set(SIGNING_VERBS.map((v) => stemOf(v)));
/** Words of a statement ("also", "aussi"): they add nothing to a signing verb. */
const STATEMENT_STEMS = new Set(STATEMENT_WORDS.map((w) => stemOf(w)));
const DATE_ONLY = new RegExp(`^(?:${DATE_LIKE})$`, 'u');
/** A code (letters and digits, "A102", "2024-0387"), a long number ("03123450375") or an amount ("450,00") ending a clause. */
const WHOLE_VALUE_END = /(?:^|\s)(?:(?=[\p{L}\d/-]*\d)(?=[\p{L}\d/-]*[\p{L}/-])[\p{L}\d][\p{L}\d/-]{2,}|\d{6,}|\d[\d.’' ]*[.,]\d{2})$/u;
/** "nr. 27 DEL 15/03/2025", "n° 12 du …", "Nr. 5 vom …": a document's number, then its date. */
const DATED_ALTERNATIVES = DATED_WORDS.join('|');
const DATED = new RegExp(`^(?:(.*\\S)\\s+)?(?:${DATED_ALTERNATIVES})\\s+(${DATE_LIKE})$`, 'iu');
const DATE_END = new RegExp(`(?:^|\\s)(?:${DATE_LIKE})$`, 'u');
const RELATION = new RegExp(`^(?:${alternatives(ALL.flatMap((p) => p.determiners))})\\s*(${alternatives(ALL.flatMap((p) => p.relations))})$`, 'iu');
const RELATION_AT_START = new RegExp(`^(?:${alternatives(ALL.flatMap((p) => p.determiners))})\\s*(${alternatives(ALL.flatMap((p) => p.relations))})(?![\\p{L}])`, 'iu');
const RELATION_AT_END = new RegExp(`(?:^|\\s)(?:${alternatives(ALL.flatMap((p) => p.determiners))})\\s*(${alternatives(ALL.flatMap((p) => p.relations))})$`, 'iu');

type Slot = 'label' | 'value' | 'tick' | 'name' | 'birth' | 'address';
interface Template {
  re: RegExp;
  /** The words before its {value} when it starts with them ("write "): said once for several clauses. */
  lead?: string;
  slots: Slot[];
  /** A person's template may follow other words ("Hello, I'm Jane"). */
  person: boolean;
  /** The field the clause names when it has no {label} ("i am {value} tall => height"). */
  label?: string;
}

const TEMPLATES: Template[] = ALL.flatMap((p) => p.templates).map((line) => {
  const [template, label] = line.split(/\s+=>\s+/) as [string, string | undefined];
  const slots: Slot[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const slot = /^\{(\w+)\}$/.exec(part)?.[1] as Slot | undefined;
      if (!slot) return phraseRe(part);
      slots.push(slot);
      return slot === 'label' ? '(.+?)' : '(.+)';
    })
    .join('');
  const person = slots.some((s) => s === 'name' || s === 'birth' || s === 'address');
  const lead = /^([^{]+\s)\{value\}.*\{label\}/.exec(template)?.[1];
  return { re: new RegExp(person ? `(?:^|[\\s,(])${source}$` : `^${source}$`, 'iu'), slots, person, label, lead };
});

// ---- sentences and clauses ----

/** Sentences of a line: split at ";", "!", "?" and a full stop that ends a sentence (see ABBREVIATIONS). */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!';.!?'.includes(c)) continue;
    const next = text[i + 1];
    if (next !== undefined && !/\s/.test(next)) continue;
    // Inside brackets nothing ends ("Tazzine (conf. 12 pz)").
    const sofar = text.slice(start, i);
    if ((sofar.match(/\(/g) ?? []).length > (sofar.match(/\)/g) ?? []).length) continue;
    if (c === '.') {
      const before = /(\S*)$/.exec(sofar)![1]!;
      const word = before.replace(/^[("'“‘]+/, '');
      const after = text.slice(i + 1).trimStart();
      if (abbreviated(word) || /^\p{Ll}/u.test(after)) continue;
      // "3. Mai 1999": a day before its month.
      if (/^\d{1,2}$/.test(word) && MONTH_NUMBERS.has(monthKey(/^\p{L}+/u.exec(after)?.[0] ?? ''))) continue;
    }
    out.push(text.slice(start, c === ';' ? i : i + 1));
    start = i + 1;
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

interface Clause {
  name: string;
  value: string | null;
  bool?: boolean;
  /** What the value is, when a phrase said so: a person's name, a date of birth, an address. */
  kind?: 'name' | 'birth' | 'address' | 'relation';
  /** The clause starts with "his", "elle" …: it is about the item named before. */
  anaphor?: boolean;
  /** Named by a run of the form's own words and no verb ("CAP 40121"): only a field printing all of them takes it. */
  printed?: boolean;
}

const stripDeterminers = (label: string) => label.replace(DETERMINERS, '').trim();

const PASSIVE = new RegExp(
  `^(\\p{L}+)\\s+(?:${PASSIVE_AGENTS.join('|')})\\s+(?:(?:the|a|an|le|la|les|un|une|der|die|das|dem|den|de|het|een|el|los|las|il|lo|o|os|as)\\s+|l['’])?(\\p{Lu}.*)$`,
  'u',
);
const PARTICIPLE = new RegExp(`^\\p{L}{2,}(?:${PARTICIPLE_ENDINGS.join('|')})$`, 'iu');

/** An article before a value that is not part of it: "la CPAM", "le 26 48 31 20", "a woman". */
function valueOf(raw: string): string {
  const value = cleanValue(raw);
  if (/^\s*["“„«']/.test(raw)) return value;
  // "al 22%", "at 20 %": a rate after its preposition.
  const rate = /^\p{Ll}{1,4}\s+(\d[\d.,]*\s?%)$/u.exec(value);
  if (rate) return rate[1]!;
  // "tenue par la Fiduciaire Kremer S.à r.l.": the agent of a passive, a name, is the value, without its
  // article ("paid by card" stays as it is).
  const passive = PASSIVE.exec(value);
  if (passive && PARTICIPLE.test(passive[1]!)) return passive[2]!;
  const m = /^(?:the|a|an|le|la|les|l['’]|un|une|der|die|das|den|de|het|een|el|los|las|il|lo|o|os|as)\s+(.+)$/iu.exec(value);
  if (m && /^(?:\p{Ll}|\d|\p{Lu}{2,}\b)/u.test(m[1]!)) return m[1]!;
  // "est l'Association Les Paniers …": the elided article in lower case is no part of the name after it
  // (a name that starts with one prints it in capitals: "L'Oréal"); a particle is ("d'Ormesson").
  const elided = /^l['’](?=\p{Lu})/u.exec(value);
  if (elided) return value.slice(elided[0].length);
  return value;
}

/** A person's name: the run of capitalized words at the start ("Lena Hofbauer und …" → Lena Hofbauer). */
function personName(text: string): string | undefined {
  const m = /^(\p{Lu}[\p{L}'’-]*\.?(?:\s+(?:\p{Lu}[\p{L}'’-]*\.?|van|von|de|der|den|du|da|di|del|dos|le|la)){0,4})(?=$|[\s,;(])/u.exec(text.trim());
  if (!m) return undefined;
  const name = m[1]!.replace(/\s+(?:van|von|de|der|den|du|da|di|del|dos|le|la)$/u, '');
  return /\s/.test(name) || name.length >= 2 ? name : undefined;
}

/** One clause of free text or one `key: value` line → a fact, or a section header (name only). */
function clauseOf(clause: string, vocabulary: Vocabulary | null = null): Clause | undefined {
  let text = withoutFullStop(clause.trim().replace(/^([-*•]|\d+[.)])\s+/, '').replace(/^#+\s*/, '').replace(/\s*[!?]+$/, ''));
  text = text.replace(CONJUNCTION, '').replace(REQUEST, '').trim();
  if (text === '') return undefined;
  const anaphor = ANAPHOR.test(text);
  for (const template of TEMPLATES) {
    const m = template.re.exec(text);
    if (!m) continue;
    const slot = (name: Slot) => m[template.slots.indexOf(name) + 1];
    if (template.slots.includes('tick')) return { name: slot('tick')!.replace(/^(?:the\s+)?(?:box\s+)?(?:for\s+|labell?ed\s+|next to\s+)?/i, '').replace(/\s+box$/i, ''), value: 'true', bool: true };
    if (template.slots.includes('name')) {
      const name = personName(slot('name')!);
      if (name && /\s/.test(name)) return { name: 'fullname', value: name, kind: 'name', anaphor };
      continue;
    }
    if (template.slots.includes('birth')) return { name: 'dob', value: cleanValue(slot('birth')!), kind: 'birth', anaphor };
    if (template.slots.includes('address')) return { name: 'address', value: cleanValue(slot('address')!), kind: 'address', anaphor };
    const label = template.slots.includes('label') ? stripDeterminers(slot('label')!) : '';
    return { name: template.label?.replace('{label}', label) ?? label, value: valueOf(slot('value')!), anaphor };
  }
  let m = /^([^:=]{1,100}?)\s*[:=]\s*(.*)$/.exec(text);
  if (m) return { name: stripDeterminers(m[1]!), value: m[2]!.trim() === '' ? null : cleanValue(m[2]!), anaphor };
  m = COPULA.exec(text);
  // "This is invoice no. 27 …", "C'est …": a subject that names nothing; the form's words after the verb may.
  const empty = m !== null && analyse(stripDeterminers(m[1]!)).stems.length === 0;
  const afterVerb = empty && vocabulary ? labelledClause(m![2]!, vocabulary) : undefined;
  if (afterVerb) return { ...afterVerb, anaphor };
  if (m && m[1]!.split(/\s+/).length <= FILL_WEIGHTS.clauseNameWords) {
    const value = valueOf(m[2]!);
    const relation = RELATION.exec(m[2]!.trim());
    if (relation) return { name: stripDeterminers(m[1]!), value: relation[1]!, kind: 'relation', anaphor };
    return { name: stripDeterminers(m[1]!), value, anaphor };
  }
  m = LINK_VALUE.exec(text);
  // "ligne 2", "row 3" number the clauses after them; they are no value.
  const numbering = /^\d{1,2}$/.test(m?.[2]?.trim() ?? '') && Number(m?.[2]) <= FILL_WEIGHTS.maxOrdinal && stripDeterminers(m?.[1] ?? '').split(/\s+/).length === 1;
  if (m && m[1]!.trim().split(/\s+/).length <= FILL_WEIGHTS.linkNameWords && !numbering) return { name: stripDeterminers(m[1]!), value: cleanValue(m[2]!), anaphor };
  const labelled = vocabulary && !numbering ? labelledClause(text, vocabulary) : undefined;
  if (labelled) return { ...labelled, anaphor };
  // A short line without a value ("Second owner") may head the lines that follow.
  if (text.length <= FILL_WEIGHTS.bareNameCharacters && !/[.!?]$/.test(clause.trim()) && !/\d/.test(text)) return { name: text, value: null };
  return undefined;
}

/** The words a clause starts with that its template puts before the value ("write " of "write X in Y"). */
function leadOf(clause: string): string | undefined {
  const text = clause.trim().replace(CONJUNCTION, '').replace(REQUEST, '').trim();
  return TEMPLATES.find((t) => t.lead !== undefined && t.re.test(text))?.lead;
}

/**
 * The words a form prints for its text fields (labels and keys, as stems). In a sentence, a run of them
 * right before a value names the field the value is for, in any language and without a verb or a
 * colon: "…; CAP 40121, città Bologna, provincia BO", "le numéro d'ordre 2024-0387".
 */
interface Vocabulary {
  stems: Set<string>;
  /** The form's labels, spaced lower-case words: one that holds a conjunction ("nom et prénom") is never split at it. */
  labels: string[];
  /** Words the form prints abbreviated ("Prov."): a longer word they start names them too ("provincia"). */
  abbreviations: string[];
}

/** Whether a word is one the form prints for a field (its stem, or a longer form of an abbreviation). */
const printedWord = (word: string, vocabulary: Vocabulary) => {
  const stem = stemOf(word);
  return vocabulary.stems.has(stem) || vocabulary.abbreviations.some((a) => stem.length > a.length && stem.startsWith(a));
};
/** A word that neither names a field nor stops a run of field words ("d'" of "numéro d'ordre"). */
const neutralWord = (word: string) => word.length === 1 || STOP_WORDS.has(word) || FUNCTION_WORDS.has(word) || FORM_STOP_WORDS.has(word);
/** Whether every content word of a name is one the form prints. */
const printedWords = (name: string, vocabulary: Vocabulary) => {
  const content = words(name).filter((w) => !neutralWord(w));
  return content.length > 0 && content.every((w) => printedWord(w, vocabulary));
};

/**
 * "CAP 40121", "ID oggetto A102", "le reçu porte le numéro d'ordre 2024-0387": a value (a number, a
 * capital, a quote) right after a run of the form's own words. The run is the clause's name; words
 * before it say nothing the form asks for.
 */
function labelledClause(text: string, vocabulary: Vocabulary): Clause | undefined {
  const tokens = [...text.matchAll(/\S+/g)];
  for (let k = 1; k < tokens.length; k++) {
    let value = text.slice(tokens[k]!.index);
    // A name ends at a comma or where a function word starts the rest ("Lambert Sophie | et signe").
    const proper = PROPER_VALUE.exec(value)?.[0];
    const properEnds = proper !== undefined && (proper.length === value.length || /^\s*[,;]/.test(value.slice(proper.length)) || FUNCTION_WORD_NEXT.test(value.slice(proper.length)));
    // "en toutes lettres cent cinquante euros": an amount written out is a value too.
    const spelled = spelledAmount(value);
    if (!/^(?:\d|["“„«])/u.test(value) && !properEnds && !spelled) continue;
    if (spelled) value = spelled;
    else if (properEnds && !/^\d/.test(value)) value = proper!;
    // A word of the form's continues the run ("VAT ID 0312…": the value is not "ID 0312…").
    if (words(tokens[k]![0]).some((w) => !neutralWord(w) && printedWord(w, vocabulary))) continue;
    // The longest run of tokens right before the value that the form prints (read whole: "code postal"
    // is one of its words), starting with a word of its own.
    // The run ends with a word of its own or a number mark ("invoice no. 27"), not an article ("rue des Aubépines").
    const last = tokens[k - 1]![0];
    if (!NUMBER_MARK.test(last) && words(last).every(neutralWord)) continue;
    let name: string | undefined;
    for (let from = k - 1; from >= Math.max(0, k - FILL_WEIGHTS.labelRunWords); from--) {
      const candidate = text.slice(tokens[from]!.index, tokens[k]!.index).trim();
      if (words(tokens[from]![0]).some((w) => !neutralWord(w)) && printedWords(candidate, vocabulary)) name = candidate;
    }
    // A clause that gave a number before the run says more than "label value" ("… de 52 480,00 de nature S en ligne 2").
    if (!name || /\d/.test(text.slice(0, text.indexOf(name)))) continue;
    // An amount is whole: what follows it ("… de nature S", "EUR brutto im Monat") is said of it, not part
    // of it; so is a number or a code before a function word ("27 del 15/03/2025 per il Bar …", its date kept).
    const whole = AMOUNT_START.exec(value) ?? NUMBER_BEFORE_WORD.exec(value);
    return { name, value: whole ? whole[0].trim() : valueOf(value), printed: true };
  }
  return undefined;
}
const NUMBER_MARK = /^(?:n[°º]|no\.|nr\.?|num\.?|#)$/iu;

const NUMBER_WORD_SET = new Set(Object.values(NUMBER_WORDS).flat());
const JOINING_WORD_SET = new Set(NUMBER_JOINING_WORDS);
/** The conjunctions of every language, one word each ("et", "und"). */
const CONJUNCTION_WORDS = new Set(ALL.flatMap((p) => p.conjunctions).filter((c) => !/\s/.test(c)).map(plain));
/** Parts of a compound written out ("einhundertfunfzig", "centocinquanta"): not the shortest words ("e", "un"). */
const COMPOUND_PARTS = [...NUMBER_WORD_SET].filter((w) => w.length >= FILL_WEIGHTS.compoundPartLetters);

/** Whether a word is a number written out, alone or as a compound of such words. */
function numberWord(word: string): boolean {
  if (NUMBER_WORD_SET.has(word)) return true;
  if (word.length < FILL_WEIGHTS.compoundNumberLetters) return false;
  const reached = new Array<boolean>(word.length + 1).fill(false);
  reached[0] = true;
  for (let i = 0; i < word.length; i++) if (reached[i]) for (const part of COMPOUND_PARTS) if (word.startsWith(part, i)) reached[i + part.length] = true;
  return reached[word.length]!;
}

/**
 * The amount written out that a text starts with ("cent cinquante euros et zéro centime; …" → "cent
 * cinquante euros et zéro centime"): two words or more, one of them a number, up to the first
 * punctuation; or undefined.
 */
function spelledAmount(text: string): string | undefined {
  let count = 0;
  let numbers = 0;
  // The run ends on a number or a currency, not on "and" ("cent cinquante euros et le don …").
  let runEnd = 0;
  for (const token of text.matchAll(/\S+/g)) {
    const bare = token[0].replace(/[,;:.)]+$/, '');
    const parts = plain(bare).split(/[-‑]/).filter(Boolean);
    if (parts.length === 0) break;
    const isNumber = parts.every(numberWord);
    if (!isNumber && !parts.every((p) => numberWord(p) || JOINING_WORD_SET.has(p))) break;
    count++;
    if (isNumber) numbers++;
    if (isNumber || !CONJUNCTION_WORDS.has(parts.join(''))) runEnd = token.index + bare.length;
    if (bare !== token[0]) break;
  }
  return count >= 2 && numbers >= 1 ? text.slice(0, runEnd).trim() : undefined;
}
const NUMBER_BEFORE_WORD = new RegExp(
  `^\\d[\\p{L}\\d/.-]*\\s+(?:${DATED_ALTERNATIVES})\\s+(?:${DATE_LIKE})|^\\d[\\p{L}\\d/.-]*(?=\\s+(?:${[...FUNCTION_WORDS].map(escapeRegExp).join('|')})\\s)(?!\\s+(?:${DATED_ALTERNATIVES})\\s+(?:${DATE_LIKE}))`,
  'iu',
);
const AMOUNT_START = /^\d{1,3}(?:[ .’']\d{3})*[.,]\d{2}(?![\d.,])(?:\s*(?:€|\$|£|EUR|USD|GBP|CHF)(?![\p{L}]))?/u;

/**
 * A value in capitals that is a name or a code throughout ("Bologna", "Hélène Marie", "BO", "A102"):
 * a capital alone says nothing where every noun has one ("Stelle trägt die Kosten").
 */
const PROPER_VALUE = /^(?:\p{Lu}[\p{L}\d'’.-]*|[\d\p{Lu}][\p{Lu}\d/-]+)(?:\s+(?:(?:van|von|de|der|den|du|da|di|del|dos|le|la)\s+)?(?:\p{Lu}[\p{L}\d'’.-]*|\d[\p{Lu}\d/-]*)){0,4}(?![\p{L}\d])/u;
const FUNCTION_WORD_NEXT = new RegExp(`^\\s+(?:${[...FUNCTION_WORDS, ...ALL.flatMap((p) => p.conjunctions)].map(escapeRegExp).join('|')})\\s`, 'iu');

/** A field's label as the page prints it: its description's first part, without the sections before "›". */
const printedLabel = (field: FillField) => (field.description.split(/\n| — /)[0] ?? '').split(/\s*›\s*/).at(-1)!.trim();

/** Words a label prints abbreviated, as stems: "Prov." → prov (three letters or more, not inside "S.A."). */
const printedAbbreviations = (label: string) => [...label.matchAll(/(?<![\p{L}.])(\p{L}{3,})\.(?![\p{L}\p{N}])/gu)].map((m) => stemOf(plain(m[1]!)));

function vocabularyOf(fields: FillField[], texts: FieldText[]): Vocabulary {
  const stems = new Set<string>();
  const abbreviations = new Set<string>();
  const labels = new Set<string>();
  fields.forEach((field, i) => {
    if (field.type !== 'text') return;
    const label = spaced(printedLabel(field));
    if (label.trim().split(' ').length <= FILL_WEIGHTS.labelRunWords) labels.add(label);
    for (const stem of texts[i]!.all) if (stem.length > 1 && !/^\d+$/.test(stem)) stems.add(stem);
    for (const a of printedAbbreviations(field.description)) abbreviations.add(a);
  });
  return { stems, labels: [...labels], abbreviations: [...abbreviations] };
}

/** Whether a piece of a sentence starts a clause of its own (else it continues the previous value). */
const startsClause = (piece: string, vocabulary: Vocabulary | null = null) => {
  const c = clauseOf(piece, vocabulary);
  return c !== undefined && c.value !== null;
};

/**
 * Clauses of a sentence: pieces between commas and conjunctions, a piece that is no clause of its own
 * joined to the one before ("15 route d'Arlon, L-8009 Strassen" stays one value).
 */
function clausesOf(sentence: string, vocabulary: Vocabulary | null = null): string[] {
  const pieces: Array<{ sep: string; text: string }> = [];
  let last = 0;
  let sep = '';
  for (const m of sentence.matchAll(/,\s+/g)) {
    if (insideQuotes(sentence, m.index!)) continue;
    pieces.push({ sep, text: sentence.slice(last, m.index) });
    sep = m[0];
    last = m.index! + m[0].length;
  }
  pieces.push({ sep, text: sentence.slice(last) });
  // Conjunctions split too, when what follows is a clause of its own; never inside a label the form
  // prints ("nom et prénom Lambert Sophie").
  const parts = pieces.flatMap((p) => {
    const sub = p.text.split(CONJUNCTION_SPLIT).flatMap((t) => t.split(ADJUNCT_SPLIT));
    const joined: string[] = [];
    for (const text of sub) {
      if (joined.length > 0 && vocabulary && splitsLabel(joined.at(-1)!, text, vocabulary)) joined[joined.length - 1] += ` ${text}`;
      else joined.push(text);
    }
    return joined.map((text, i) => ({ sep: i === 0 ? p.sep : ' ', text }));
  });
  const out: string[] = [];
  // "Write X in A, Y in B": the verb of the first clause goes with the clauses after it.
  let lead: string | undefined;
  for (const part of parts) {
    const starts = startsClause(part.text, vocabulary);
    if (out.length > 0 && lead && !starts && startsClause(`${lead}${part.text.trim()}`, vocabulary)) {
      out.push(`${lead}${part.text.trim()}`);
      continue;
    }
    if (out.length === 0 || starts) lead = leadOf(part.text);
    // A date, a code or an amount is a whole value: what follows it after a comma does not continue it
    // ("signe le 14/03/2024, tandis que …", "ID oggetto A102, Macinacaffè professionale").
    const afterWhole = out.length > 0 && part.sep.startsWith(',') && (DATE_END.test(out.at(-1)!) || WHOLE_VALUE_END.test(out.at(-1)!));
    if (out.length === 0 || afterWhole || starts || SUBJECT_START.test(part.text.trim()) || RELATION_AT_END.test(part.text.trim()) || (personName(part.text) === part.text.trim() && /\s/.test(part.text.trim()))) out.push(part.text);
    else out[out.length - 1] += part.sep + part.text;
  }
  return out;
}

/** Whether two pieces of a sentence were cut inside one of the form's labels ("… nom" | "et prénom …"). */
function splitsLabel(before: string, after: string, vocabulary: Vocabulary): boolean {
  const a = spaced(before);
  const b = spaced(after);
  return vocabulary.labels.some((label) => {
    const parts = label.trim().split(' ');
    for (let i = 1; i < parts.length; i++) if (a.endsWith(` ${parts.slice(0, i).join(' ')} `) && b.startsWith(` ${parts.slice(i).join(' ')} `)) return true;
    return false;
  });
}

/** Whether a place in a text is between quotes ("Check box, unchecked"): a comma there splits nothing. */
function insideQuotes(text: string, at: number): boolean {
  const before = text.slice(0, at);
  const straight = (before.match(/"/g) ?? []).length % 2 === 1;
  const curly = (before.match(/[“«„]/g) ?? []).length > (before.match(/[”»]/g) ?? []).length;
  return straight || curly;
}

// ---- what a phrase said: names, addresses ----

const partOf = (whole: Fact, part: Fact | undefined): Fact | undefined => (part ? { ...part, whole } : undefined);

/** A full name → given names and family name (the last word). */
function nameFacts(full: string, options: MakeOptions): Fact[] {
  const parts = full.split(/\s+/);
  const whole = makeFact(['fullname'], [], [full], { ...options, alt: BARE_NAME_WORDS.fullname });
  const facts = [whole];
  if (parts.length >= 2 && whole) {
    facts.push(partOf(whole, makeFact(['firstname'], [], [parts.slice(0, -1).join(' ')], { ...options, alt: BARE_NAME_WORDS.firstname })));
    facts.push(partOf(whole, makeFact(['lastname'], [], [parts.at(-1)!], { ...options, alt: BARE_NAME_WORDS.lastname })));
  }
  return facts.filter((f): f is Fact => f !== undefined);
}

const POSTCODE_CITY = /^((?:[A-Z]{1,2}-)?\d{4,5}(?:\s?[A-Z]{2}(?=\s))?)\s+(\p{L}[\p{L}\s'’-]*)$/u;
const NUMBER_ONLY = /^(?:(?:n°|no\.?|nr\.?|num[eé]ro|number|nummer|número|numero)\s*)?(\d+\s?[a-zA-Z]?)$/iu;

/** Where one lives → street line, street, house number, further line, postcode, city, country. */
function addressFacts(address: string, options: MakeOptions): Fact[] {
  const parts: string[] = [];
  for (const piece of address.split(CONJUNCTION_SPLIT)[0]!.split(/,\s*|\s+(?:in|à|a|en|te)\s+(?=(?:[A-Z]{1,2}-)?\d{4})/u)) {
    const p = piece.trim().replace(/^(?:in|à|au|at|en|im|in der|am)\s+/iu, '').replace(/\.$/, '');
    if (p === '') continue;
    if (CONJUNCTION.test(`${p} `) && parts.length > 0) break;
    parts.push(p);
  }
  const facts: Array<Fact | undefined> = [];
  let streetLine: string | undefined;
  let street: string | undefined;
  let number: string | undefined;
  let postcode: string | undefined;
  let city: string | undefined;
  let country: string | undefined;
  const extra: string[] = [];
  for (const p of parts) {
    const pc = POSTCODE_CITY.exec(p);
    if (pc && !postcode) {
      [postcode, city] = [pc[1]!, pc[2]!.trim()];
      continue;
    }
    const nb = NUMBER_ONLY.exec(p);
    if (nb && !number) {
      number = nb[1]!;
      continue;
    }
    const before = /^(\d+\s?[a-zA-Z]?)(?:,)?\s+(\D.*)$/.exec(p);
    const after = /^(\D*\p{L}.*?)\s+(\d+\s?[a-zA-Z]?)$/u.exec(p);
    if (!streetLine && !postcode && (before || after)) {
      streetLine = p;
      [number, street] = before ? [before[1]!, before[2]!] : [after![2]!, after![1]!];
      continue;
    }
    if (!streetLine && !postcode && number && !/\d/.test(p)) {
      street = p;
      streetLine = `${number} ${p}`;
      continue;
    }
    if (postcode && !country && !/\d/.test(p)) {
      country = p;
      continue;
    }
    if (streetLine && !postcode) {
      extra.push(p);
      continue;
    }
    if (!postcode && !/\d/.test(p) && parts.length === 1) {
      city = p;
      continue;
    }
  }
  const add = (names: string[], value: string | undefined, alt: string[] = [], whole?: Fact) => {
    if (!value) return undefined;
    const fact = makeFact(names, [], [value], { ...options, alt });
    facts.push(whole ? partOf(whole, fact) : fact);
    return fact;
  };
  const line = add(['address'], streetLine, ['street housenumber', 'address 1']);
  add(['street'], street, ['address'], line);
  add(['housenumber'], number, [], line);
  const line2 = extra.length > 0 ? extra.join(', ') : postcode && city ? `${postcode} ${city}` : undefined;
  if (line2) facts.push(makeFact(['address 2'], [], [line2], { ...options }));
  add(['zip'], postcode);
  add(['city'], city, parts.length === 1 ? ['country'] : []);
  add(['country'], country);
  if (!streetLine && !postcode && !city) add(['address'], address);
  return facts.filter((f): f is Fact => f !== undefined);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What reading a text of instructions carries from clause to clause and line to line. */
interface TextReading {
  facts: Fact[];
  /** A `key:` line with no value, or a short line without one, names the section of the lines after it. */
  header: string | null;
  /** The item the last clauses were about (the 2nd dependant): its ordinal and words. */
  item: { ordinal: number; context: string[] } | null;
  /** Items introduced so far. */
  items: number;
  /** Each item introduced by its link to the writer ("ma conjointe" → the 1st): named again, it is the item again. */
  relations: Map<string, { ordinal: number; context: string[] }>;
  /** The words of the last clause's name, for a clause that starts with "his", "son" … */
  topic: string[] | null;
  /** The form's own words, when the form is known. */
  vocabulary: Vocabulary | null;
}

/** What one sentence carries from clause to clause. */
interface SentenceReading {
  /** "En ligne 2, …", "For the second owner, …": a lead without a value numbers the clauses after it. */
  lead: { ordinal: number; context: string[] } | null;
  /** The sentence introduced an item ("my son, born …"): its name and birth are the item's. */
  item: boolean;
}

/**
 * The facts of free text, line by line: a `key: value` line is one fact; other lines are read
 * sentence by sentence (date ranges, where and when it is signed, then clause by clause); an e-mail
 * address anywhere is one too.
 */
function factsOfText(instructions: string, vocabulary: Vocabulary | null): Fact[] {
  const reading: TextReading = { facts: [], header: null, item: null, items: 0, relations: new Map(), topic: null, vocabulary };
  for (const line of instructions.split(/\r?\n/)) {
    if (reading.facts.length >= FILL_WEIGHTS.maxFacts) break;
    if (line.trim() === '') {
      reading.header = null;
      continue;
    }
    if (readKeyedLine(reading, line)) continue;
    for (const sentence of sentencesOf(line)) readSentence(reading, line, sentence);
  }
  // Values that say what they are: an e-mail address anywhere in the text.
  for (const email of instructions.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? []) {
    if (!reading.facts.some((f) => f.values.includes(email))) pushFacts(reading, [makeFact(['email'], [], [email])]);
  }
  return reading.facts;
}

function pushFacts(reading: TextReading, list: Array<Fact | undefined>): void {
  for (const f of list) if (f && reading.facts.length < FILL_WEIGHTS.maxFacts) reading.facts.push(f);
}

/** A `key: value` line is one fact, whatever its value says (sentences, commas); a `key:` line alone a header. Whether the line was one. */
function readKeyedLine(reading: TextReading, line: string): boolean {
  const keyed = /^\s*(?:[-*•]\s*)?([^:=]{1,80}?)\s*[:=]\s*(.*)$/.exec(line);
  if (!(keyed && keyed[1]!.trim().split(/\s+/).length <= FILL_WEIGHTS.keyWords && !/[.;!?]\s/.test(keyed[1]!))) return false;
  const value = keyed[2]!.trim();
  // "Second row: item code B215, …": a numbered lead of clauses, read as sentences.
  if (numberedLead(keyed[1]!, value, reading.vocabulary)) return false;
  if (value === '') {
    reading.header = keyed[1]!.replace(/^#+\s*/, '');
    return true;
  }
  // "Ayant droit 1 – Nom de famille": the words before a dash are the section the field is in.
  const names = keyed[1]!.split(/\s+[–—-]\s+/).filter((n) => n.trim() !== '');
  const keys = reading.header ? [reading.header, ...names] : names;
  // "Objet : « A » puis « B »": each quoted part is the next line of the field (quotedParts).
  const quoted = quotedParts(value);
  if (quoted) pushFacts(reading, quoted.map((part, i) => makeFact(keys, [], [part], quoted.length > 1 ? { ordinal: i + 1 } : {})));
  else pushFacts(reading, [makeFact(keys, [], [unquoted(value)])]);
  return true;
}

function readSentence(reading: TextReading, line: string, text: string): void {
  let sentence = rangeFacts(reading, text);
  sentence = signingFacts(reading, sentence);
  const state: SentenceReading = { lead: null, item: false };
  // "Ma conjointe atteste …; elle écrit …": a sentence that starts by naming an item introduced before is about it.
  const named = RELATION_AT_START.exec(sentence.trim());
  const known = named ? reading.relations.get(plain(named[1]!)) : undefined;
  if (known) reading.item = known;
  // "Seconda riga: ID oggetto B215, …": a numbered lead before a colon numbers the clauses after it.
  const headed = /^([^:]{1,60}?)\s*:\s+(.+)$/su.exec(sentence);
  if (headed && numberedLead(headed[1]!, headed[2]!, reading.vocabulary)) {
    const head = analyse(headed[1]!);
    state.lead = { ordinal: head.ordinal!, context: head.stems };
    sentence = headed[2]!;
  }
  for (const raw of clausesOf(sentence, reading.vocabulary)) {
    const clause = clauseOf(raw, reading.vocabulary);
    if (!clause || clause.value === null) readClauseWithoutValue(reading, state, line, sentence, raw, clause);
    else readClause(reading, state, { ...clause, value: clause.value });
  }
}

/** "… du 01/01/2019 au 31/12/2019": two values, named by the range's words, the words before as context. The sentence without them. */
function rangeFacts(reading: TextReading, text: string): string {
  let sentence = text;
  for (let m = RANGE.exec(sentence); m; m = RANGE.exec(sentence)) {
    const context = analyse(sentence.slice(0, m.index).split(/[,;]/).findLast((p) => p.trim() !== '') ?? '').stems;
    for (const [word, value] of [[m[1]!, m[2]!], [m[3]!, m[4]!]] as const) {
      const fact = makeFact([word], [], [value], { context });
      if (fact) pushFacts(reading, [{ ...fact, name: [stemOf(plain(word))] }]);
    }
    sentence = `${sentence.slice(0, m.index)} ${sentence.slice(m.index + m[0].length)}`.replace(/\s+,/g, ',');
  }
  return sentence;
}

/** Whether "head: rest" is a numbered lead ("Second row") of clauses that name fields with the form's words. */
function numberedLead(head: string, rest: string, vocabulary: Vocabulary | null): boolean {
  return vocabulary !== null && analyse(head).ordinal !== null && head.trim().split(/\s+/).length <= FILL_WEIGHTS.leadWords && startsClause(rest.split(/,\s+/)[0]!, vocabulary);
}

/** "Fait à Lyon le 15/03/2024", "signed in Brussels on 3 May 2024": where and when it is signed. The sentence without it. */
function signingFacts(reading: TextReading, sentence: string): string {
  const bare = sentence.normalize('NFKD').replace(/\p{M}/gu, '');
  const signed = bare.length === sentence.length ? SIGNED_AT.exec(bare) : null;
  if (!signed) return sentence;
  const placeAt = signed.index + signed[0].length - signed[1]!.length - signed[2]!.length - signed[3]!.length;
  const context = [...analyse(sentence.slice(0, placeAt)).stems, ...SIGNATURE_STEMS];
  pushFacts(reading, [makeFact(['signplace'], [], [sentence.substr(placeAt, signed[1]!.length)], { context })]);
  pushFacts(reading, [makeFact(['date'], [], [signed[3]!], { context })]);
  // "…, et je signe …": the words left before the verb are no value.
  return sentence.slice(0, signed.index).replace(/[\s,;]*(?:(?:et|and|und|en|y|e|ed)\s+)?(?:je|j['’]|i|ich|ik|yo|io|eu|nous|we|wir|wij)?\s*$/iu, '').trimEnd();
}

/** A clause that gives no value: it introduces an item ("my son"), names one, heads the lines after it, or numbers the clauses after it. */
function readClauseWithoutValue(reading: TextReading, state: SentenceReading, line: string, sentence: string, raw: string, clause: Clause | undefined): void {
  // A number in brackets is a detail ("Cups (pack of 12)"), never what numbers the clauses after it.
  const a = analyse(raw.replace(/\([^)]*\)/g, ' '));
  const introduced = RELATION_AT_END.exec(raw.trim());
  if (introduced) {
    reading.item = { ordinal: ++reading.items, context: [] };
    reading.relations.set(plain(introduced[1]!), reading.item);
    state.item = true;
    pushFacts(reading, [makeFact(['relationship'], [], [capitalized(introduced[1]!)], { ordinal: reading.item.ordinal })]);
  } else if (personName(raw) === raw.trim() && /\s/.test(raw.trim()) && state.item && reading.item) {
    pushFacts(reading, nameFacts(raw.trim(), { ordinal: reading.item.ordinal, context: reading.item.context }));
  } else if (clause && clause.value === null && sentence.trim() === line.trim() && !/[.;!?]$/.test(sentence)) {
    reading.header = clause.name;
  } else if (a.ordinal !== null && raw.trim().split(/\s+/).length <= FILL_WEIGHTS.leadWords) {
    state.lead = { ordinal: a.ordinal, context: a.stems };
  }
}

/** A clause that gives a value: a relation, a name, an address, or a value of a named field (with its item, its topic, its section). */
function readClause(reading: TextReading, state: SentenceReading, clause: Clause & { value: string }): void {
  const own = analyse(clause.name);
  const about = (clause.anaphor || (state.item && (clause.kind === 'name' || clause.kind === 'birth'))) && reading.item ? reading.item : state.lead;
  const options: MakeOptions = { bool: clause.bool ?? null, ordinal: own.ordinal === null ? (about?.ordinal ?? null) : null, context: own.ordinal === null ? (about?.context ?? []) : [], printed: clause.printed };
  if (clause.kind === 'relation') {
    const ordinal = own.ordinal ?? ++reading.items;
    reading.items = Math.max(reading.items, ordinal);
    reading.item = { ordinal, context: own.stems };
    reading.relations.set(plain(clause.value), reading.item);
    pushFacts(reading, [makeFact(['relationship'], [], [capitalized(clause.value)], { ordinal, context: own.stems })]);
    return;
  }
  if (own.ordinal !== null && clause.kind === undefined) reading.item = { ordinal: own.ordinal, context: own.stems.filter((s) => s.length > 0) };
  // "Mon employeur est X et SON adresse est …": the clause is about the topic named before.
  if (clause.anaphor && !about && reading.topic) options.context = [...(options.context ?? []), ...reading.topic];
  // "La donatrice est Muller, prénoms Hélène Marie; elle habite …": a part of a name says more of the
  // person named before; "elle" is still that person.
  if (!clause.anaphor && clause.kind === undefined && !own.stems.every((s) => NAME_PART_STEMS.has(s))) reading.topic = own.stems;
  // "fattura nr. 27 del 15/03/2025", "le reçu est daté du 20/11/2024": the date is a value of its own,
  // the date of what the clause names.
  const dated = clause.kind === undefined ? DATED.exec(clause.value) : null;
  if (dated) {
    pushFacts(reading, [makeFact(['date'], [], [dated[2]!], { ...options, context: [...(options.context ?? []), ...own.stems] })]);
    const rest = dated[1]?.trim() ?? '';
    if (rest === '' || !/[\d\p{Lu}]/u.test(rest)) return;
    clause = { ...clause, value: rest };
  }
  // "Son objet est « Distribution gratuite » sur la première ligne et « aux personnes » sur la
  // deuxième": what is quoted is the value, the words around it say where it goes; each quoted part
  // is the next line of the field.
  const quoted = clause.kind === undefined ? quotedParts(clause.value) : undefined;
  if (quoted) {
    quoted.forEach((part, i) => pushFacts(reading, namedValueFacts(reading, { ...clause, value: part }, own, quoted.length > 1 ? { ...options, ordinal: i + 1 } : options)));
    return;
  }
  if (clause.kind === 'name') pushFacts(reading, nameFacts(clause.value, options));
  else if (clause.kind === 'address' || (own.stems.includes('address') && own.stems.length === 1 && /,/.test(clause.value))) pushFacts(reading, addressFacts(clause.value, options));
  else pushFacts(reading, namedValueFacts(reading, clause, own, options));
}

/**
 * The quoted parts of a value that starts with a quote and says more outside its quotes
 * (`« A » sur la première ligne et « B » sur la deuxième`); undefined for any other value (a value
 * quoted whole is only unquoted, by cleanValue).
 */
function quotedParts(value: string): string[] | undefined {
  if (!/^\s*["“„«]/.test(value)) return undefined;
  const parts = [...value.matchAll(/["“„«]\s*([^"“”„«»]+?)\s*["”“»]/g)];
  const outside = parts.reduce((rest, m) => rest.replace(m[0], ' '), value);
  if (parts.length === 0 || !/\p{L}/u.test(outside)) return undefined;
  return parts.map((m) => m[1]!);
}

/** The stems of a name's parts (given names, family name, full name), in any language the knowledge names them in. */
const NAME_PART_STEMS = new Set(analyse('firstname lastname fullname').stems);

/** The facts of a named value: "Mon nom est Moreau", a name followed by its address, a type's code given in its name. */
function namedValueFacts(reading: TextReading, clause: Clause & { value: string }, own: { stems: string[] }, options: MakeOptions): Array<Fact | undefined> {
  const facts: Array<Fact | undefined> = [];
  // "Mon nom est Moreau": a bare name word means one part of a name on that language's forms.
  const bare = (Object.keys(BARE_NAME_WORDS) as Array<keyof typeof BARE_NAME_WORDS>).find((part) => BARE_NAME_WORDS[part].includes(plain(stripDeterminers(clause.name))));
  // "Mon employeur est Lux S.A., 15 route d'Arlon, L-8009 Strassen": a name, then its address.
  let value = clause.value;
  const at = /,\s+(?=(?:[A-Z]{1,2}-)?\d)/.exec(value);
  if (at && clause.kind === undefined && !/\d/.test(value.slice(0, at.index))) {
    const address = addressFacts(value.slice(at.index + at[0].length), { ...options, context: [...(options.context ?? []), ...own.stems] });
    if (address.some((f) => f.name.includes('address') || f.name.includes('zip'))) {
      value = value.slice(0, at.index);
      facts.push(...address);
    }
  }
  // "les rémunérations de nature S s'élèvent à …": the type's code is a value of its own.
  const coded = clause.kind === undefined ? CODED_NAME.exec(clause.name) : null;
  if (coded) facts.push(makeFact([coded[2]!], [], [coded[3]!], { ...options, context: [...(options.context ?? []), ...analyse(coded[1]!).stems] }));
  const name = coded ? coded[1]! : clause.name;
  facts.push(makeFact(reading.header ? [reading.header, name] : [name], [], [value], bare ? { ...options, alt: [bare] } : options));
  return facts;
}

export function factsOf(instructions: string, vocabulary: Vocabulary | null = null): Fact[] {
  const trimmed = instructions.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return factsOfJson(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  return factsOfText(instructions, vocabulary);
}

// ---- scoring ----

/** Words of the knowledge files: a key word among them is a word, not an abbreviation. */
const KNOWN_WORDS = new Set([...Object.values(BARE_NAME_WORDS).flat(), ...Object.values(FIELD_CONCEPTS).flat(), ...FUNCTION_WORDS].map((w) => stemOf(plain(w))));

function fieldTextOf(field: FillField): FieldText {
  const full = field.description.split(/\n| — | - \(/)[0] ?? '';
  // "Section › label": the label proper is the last part; the sections before it scope the match. The
  // block's title, first, only tells one block's field from another's.
  const parts = full.split(/\s*›\s*/);
  const block = field.block !== undefined && parts.length > 1 && parts[0] === field.block ? parts.shift()! : '';
  const label = parts.at(-1) ?? '';
  const colon = label.lastIndexOf(':');
  const keyParts = analyse(field.key);
  const labelParts = analyse(label);
  const sectionParts = analyse(parts.slice(0, -1).join(' '));
  // "Fait à …, le": a label ending in a date's lead word is a date.
  const lastWord = words(label).at(-1);
  if (lastWord !== undefined && DATE_LEAD_SET.has(lastWord)) labelParts.stems.push('date');
  const optionStems = new Set(analyse(colon > 0 ? label.slice(colon + 1) : label).stems);
  const labelStems = new Set([...labelParts.stems, ...sectionParts.stems]);
  return {
    // An abbreviation of a word the label prints ("emp" of "Employeur") adds nothing the label does not say.
    // A word the label prints abbreviated ("Prov.") is matched by the word it starts ("provincia").
    abbrevs: [
      ...keyParts.stems.filter((k) => /^\p{L}{3,4}$/u.test(k) && !KNOWN_WORDS.has(k) && ![...labelStems].some((l) => l.startsWith(k))),
      ...printedAbbreviations(label),
    ],
    acronyms: [...label.matchAll(/(?<![\p{L}\p{N}])\p{Lu}{2,6}(?![\p{L}\p{N}])/gu)].map((m) => m[0]),
    section: sectionParts.stems,
    block: analyse(block).stems.filter((b) => !labelStems.has(b)),
    keyGroup: keyParts.stems.filter((k) => !optionStems.has(k)),
    all: [...new Set([...keyParts.stems, ...labelParts.stems])],
    group: colon > 0 ? analyse(label.slice(0, colon)).stems : [],
    groupSquash: colon > 0 ? words(label.slice(0, colon)).join('') : '',
    option: (colon > 0 ? label.slice(colon + 1) : label).trim() || field.key,
    // A key made from the label, numbered because the label repeats ("adresse_2" on a form's second
    // copy), numbers nothing.
    ordinal: labelParts.ordinal ?? sectionParts.ordinal ?? (normalizedKey(field.key.replace(/_\d+$/, '')) === normalizedKey(label) ? null : keyParts.ordinal),
    // A key that only spells the printed label (a flat form's fields are keyed so) names nothing more:
    // "nom" written for it is the label's word, and the section still decides whose "nom" it is.
    key: normalizedKey(field.key) === normalizedKey(label) ? '' : normalizedKey(field.key),
  };
}

/** How well a fact's name (or another of its names) matches a set of field stems, 0..1. */
function overlap(fact: Fact, stems: string[], abbrevs: string[] = []): number {
  let best = overlapOf(fact, fact.name, stems, abbrevs);
  // Another name is a word of some language ("nombre"): read against the field's words only, not its abbreviations.
  for (const alt of fact.alt) best = Math.max(best, overlapOf(fact, alt, stems) - FILL_WEIGHTS.altNamePenalty);
  return best;
}

/**
 * The overlap with a field's label: `match` says whether it is one at all, `rank` how good. The section
 * counts: a fact that names it ("nom de l'employeur" → Employeur › nom) matches as if the section were
 * part of the label; a fact that does not ranks below a field of no section ("nom" → "salarié nom").
 */
function overlapIn(fact: Fact, text: FieldText): { match: number; rank: number } {
  const { match, rank } = sectionedOverlap(fact, text);
  // What the writer says of themself goes first to the field the form says is theirs ("salarié(e) nom").
  const self = fact.context.length === 0 && match > 0 && text.all.some((s) => SELF_STEMS.has(s)) ? FILL_WEIGHTS.selfBonus : 0;
  // "Donateur – code postal": the postcode of the block titled "Donateur", not the other block's.
  const said = match > 0 && text.block.length > 0 ? [...fact.name, ...fact.context, ...fact.alt.flat()] : [];
  const block = said.some((s) => text.block.includes(s)) ? FILL_WEIGHTS.blockNamed : 0;
  return { match, rank: rank + self + block };
}
const SELF_STEMS = new Set(SELF_WORDS.map(stemOf));

function sectionedOverlap(fact: Fact, text: FieldText): { match: number; rank: number } {
  const score = Math.max(overlap(fact, text.all, text.abbrevs), acronymMatch(fact, text));
  // Named by where the field is, not by its label, as surely as "Mon employeur est …" below: "La
  // donatrice est Muller" (the party a block is titled by, for its name box); "Somme : 150,00 euros" for
  // a box labelled only "Euros" under "… la somme de" (the value's unit is the label).
  if (score === 0 && (partyNamed(fact, text) || unitLabelled(fact, text))) return { match: 1 - FILL_WEIGHTS.sectionOnlyPenalty, rank: 1 - FILL_WEIGHTS.sectionOnlyPenalty };
  // "Mon employeur est …" names the field "nom" of the section "Employeur", less surely than its label
  // would; and it ranks as a label match that misses the section does: below a fact the field's own
  // label names ("objet" for "Adresse › Objet (row 2)", not the address's second line).
  if (score === 0 && text.section.length > 0) {
    const s = Math.max(0, overlap(fact, [...text.all, ...text.section], text.abbrevs) - FILL_WEIGHTS.sectionOnlyPenalty);
    return { match: s, rank: s - FILL_WEIGHTS.sectionPenalty };
  }
  if (score === 0 || text.section.length === 0) return { match: score, rank: score };
  const section = new Set(text.section);
  const said = [...fact.name, ...fact.context, ...fact.alt.flat()];
  if (!said.some((s) => section.has(s))) {
    // Unless the fact's context is in the label itself ("la période du certificat va du …" → "Période du").
    const label = new Set(text.all);
    return { match: score, rank: fact.context.some((s) => label.has(s)) ? score : score - FILL_WEIGHTS.sectionPenalty };
  }
  const within = Math.max(score, sectionOverlap(fact, text.all, section));
  return { match: within, rank: within + FILL_WEIGHTS.sectionNamed };
}

/** The stems of labels that ask for a party's name (a full name, a family name, a bare "Nom", "Name"). */
const PARTY_NAME_STEMS = new Set([...analyse('fullname lastname').stems, ...[...BARE_NAME_WORDS.fullname, ...BARE_NAME_WORDS.lastname].map((w) => stemOf(plain(w)))]);

/** A fact that is only the title of the field's block ("la donatrice" of "Donateur"), its value a name, for the block's name box. */
function partyNamed(fact: Fact, text: FieldText): boolean {
  if (text.block.length === 0 || fact.name.length === 0 || !fact.name.every((s) => text.block.includes(s))) return false;
  return text.all.some((s) => PARTY_NAME_STEMS.has(s)) && fact.values.every((v) => !/\d/.test(v));
}

/** A field labelled by a unit alone ("Euros", "kg") under a section that names the fact, for a number in that unit. */
function unitLabelled(fact: Fact, text: FieldText): boolean {
  if (text.all.length !== 1 || fact.name.length === 0 || !fact.name.every((s) => text.section.includes(s))) return false;
  return fact.values.some((v) => /\d/.test(v) && analyse(v).stems.at(-1) === text.all[0]);
}

/** The abbreviation a fact gives in brackets, printed as a word in the label ("(FD)" → "5) FD"): a sure match. */
const acronymMatch = (fact: Fact, text: FieldText) => (fact.acronyms.some((a) => text.acronyms.includes(a)) ? FILL_WEIGHTS.acronym : 0);

/** A fact's name against a label and its section together: the section's words count as matched, not as the label's size. */
function sectionOverlap(fact: Fact, label: string[], section: Set<string>): number {
  const names = new Set(fact.name);
  if (names.size === 0 || label.length === 0) return 0;
  const labelSet = new Set(label);
  const inLabel = [...names].filter((s) => labelSet.has(s)).length;
  if (inLabel === 0) return 0;
  const inSection = [...names].filter((s) => !labelSet.has(s) && section.has(s)).length;
  return FILL_WEIGHTS.recallShare * ((inLabel + inSection) / names.size) + FILL_WEIGHTS.precisionShare * Math.min(1, inLabel / labelSet.size);
}

function overlapOf(fact: Fact, name: string[], stems: string[], abbrevs: string[] = []): number {
  fact = { ...fact, name };
  if (fact.name.length === 0 || stems.length === 0) return 0;
  // Words run together ("Accounttype", as OCR may read it) still match.
  if (fact.name.join('') === stems.join('')) return 1;
  const set = new Set(stems);
  const abbreviates = (s: string) => abbrevs.some((a) => s.length >= a.length + FILL_WEIGHTS.abbreviationExtraLetters && s.startsWith(a));
  // The field's name abbreviating the fact's ("A.NAT1" for "nature") matches a short name the label does not say at all.
  const exactly = fact.name.filter((s) => set.has(s));
  const matched = new Set(exactly.length === 0 && new Set(fact.name).size <= FILL_WEIGHTS.abbreviatedNameWords ? fact.name.filter(abbreviates) : exactly);
  if (matched.size === 0) return 0;
  const contextMatched = fact.context.filter((s) => set.has(s) && !matched.has(s));
  // The field's words the fact accounts for: an abbreviation of the key ("nat") as well as the word ("nature").
  const abbreviated = abbrevs.filter((a) => set.has(a) && !matched.has(a) && fact.name.some((s) => s.length >= a.length + FILL_WEIGHTS.abbreviationExtraLetters && s.startsWith(a)));
  const recall = matched.size / new Set(fact.name).size;
  const exact = [...matched].filter((s) => set.has(s)).length;
  const precision = Math.min(1, (exact + new Set(contextMatched).size + abbreviated.length) / set.size);
  return FILL_WEIGHTS.recallShare * recall + FILL_WEIGHTS.precisionShare * precision;
}

function ordinalsAgree(fact: Fact, field: FieldText): number | undefined {
  if (fact.ordinal !== null && field.ordinal !== null) return fact.ordinal === field.ordinal ? FILL_WEIGHTS.sameOrdinal : undefined;
  if (fact.ordinal !== null) return fact.ordinal === 1 ? -FILL_WEIGHTS.factNumberedOne : undefined;
  // A number on a field without one in the fact may be a line number ("FD (ligne 11)"), not a row.
  if (field.ordinal !== null) return field.ordinal === 1 ? -FILL_WEIGHTS.fieldNumberedOne : -FILL_WEIGHTS.fieldNumbered;
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

/** The items of a list value ("German, English and French"), or the value alone. */
function listItems(value: string): string[] {
  const items = value.split(LIST_SEPARATOR).map((v) => v.trim()).filter(Boolean);
  return items.length >= 2 && items.every((v) => v.split(/\s+/).length <= FILL_WEIGHTS.listItemWords) ? items : [value];
}
const LIST_SEPARATOR = new RegExp(`\\s*,\\s*|\\s+(?:${alternatives(ALL.flatMap((p) => p.conjunctions).concat(['or', 'ou', 'oder', 'o']))})\\s+`, 'iu');
const itemsOf = (fact: Fact) => fact.values.flatMap(listItems);

function candidatesFor(fact: Fact, factIndex: number, field: FillField, fieldIndex: number, text: FieldText): Candidate[] {
  if (fact.target !== undefined) return fact.target === fieldIndex ? [{ fact: factIndex, field: fieldIndex, score: fact.targetScore ?? FILL_WEIGHTS.statementTarget, value: fact.values[0]! }] : [];
  const bonus = ordinalsAgree(fact, text);
  if (bonus === undefined) return [];
  const exact = fact.path !== '' && fact.path === text.key ? 1 : 0;
  if (field.type === 'checkbox') {
    const out: Candidate[] = [];
    if (fact.bool !== null) {
      const score = exact ? { match: 1, rank: 1 } : overlapIn(fact, text);
      if (score.match >= FILL_WEIGHTS.matchThreshold) out.push({ fact: factIndex, field: fieldIndex, score: score.rank + exact + bonus, value: String(fact.bool) });
    }
    // A value naming this box's option ticks it, when the fact's name fits the box's group (or the
    // box's name: "Languages: German, English" ticks "Language 1 Check Box: Deutsch").
    const optionScore = Math.max(...itemsOf(fact).map((v) => textSimilarity(v, text.option)));
    if (optionScore >= FILL_WEIGHTS.optionNamed) {
      const keyScore = text.keyGroup.length > 0 ? overlap(fact, text.keyGroup) : 0;
      const groupScore = text.group.length > 0 ? Math.max(overlap(fact, text.group), fact.squash === text.groupSquash ? 1 : 0, keyScore) : overlap(fact, text.all) > 0 ? 1 : FILL_WEIGHTS.ungroupedOption;
      if (groupScore >= FILL_WEIGHTS.matchThreshold) out.push({ fact: factIndex, field: fieldIndex, score: groupScore + optionScore + bonus, value: 'true' });
    }
    return out;
  }
  if (fact.bool !== null && fact.values.length === 1 && /^(true|false)$/i.test(fact.values[0]!)) return [];
  // A signature box ("signature de l'employeur") is signed, not written in: only a value said to be a
  // signature goes there, not a date (a date or place of signing has a field of its own).
  const signature = [...fact.name, ...fact.context].some((s) => SIGNATURE_STEMS.includes(s)) && !fact.values.every((v) => DATE_ONLY.test(v.trim()));
  if (!exact && isSignatureBox(text) && !signature) return [];
  const score = exact ? { match: 1, rank: 1 } : overlapIn(fact, text);
  if (score.match < FILL_WEIGHTS.matchThreshold) return [];
  // A value named by the form's own words without a verb goes only to a field that prints them all.
  if (fact.printed && !exact && !fact.name.every((s) => text.all.includes(s) || text.section.includes(s) || text.abbrevs.some((a) => s.length >= a.length + FILL_WEIGHTS.abbreviationExtraLetters && s.startsWith(a)))) return [];
  const value = fitted(formatValue(fact.values, field), field);
  if (value === null) return [];
  // A yes or a no is a box's answer before it is a text.
  const answer = fact.bool !== null ? -FILL_WEIGHTS.yesNoAsText : 0;
  // A part of an unnumbered value (the street of an address line, the family name of a full name) is a
  // part of its first line: never for a field numbered 2 or more ("adresse (line 2)").
  if (fact.whole && fact.ordinal === null && text.ordinal !== null && text.ordinal > 1) return [];
  // A part of a value said of someone ("son adresse" of the employer) is theirs: never for a field in a
  // section its context does not name (the accountant's address).
  if (fact.whole && fact.context.length > 0 && text.section.length > 0 && !fact.context.some((s) => text.section.includes(s))) return [];
  return [{ fact: factIndex, field: fieldIndex, score: score.rank + exact + bonus + answer + closeness(value, field), value }];
}

/** The characters a value takes in a field: a comb field drops its spaces. */
const lengthIn = (value: string, field: FillField) => (field.comb ? value.replace(/\s+/g, '') : value).length;

/**
 * A value as it fits the field, or null when it cannot: longer than the field holds (a date then
 * loses its separators, "15/03/2024" → "15032024", when that fits).
 */
function fitted(value: string | null, field: FillField): string | null {
  if (value === null || field.maxLength === undefined || lengthIn(value, field) <= field.maxLength) return value;
  const date = /^(\d{1,2})[./\-\s](\d{1,2})[./\-\s](\d{4}|\d{2})$/.exec(value.trim()) ?? /^(\d{4})[./-](\d{1,2})[./-](\d{1,2})$/.exec(value.trim());
  if (date) {
    const compact = date.slice(1).map((p) => (p.length === 1 ? `0${p}` : p)).join('');
    if (compact.length <= field.maxLength) return compact;
    if (compact.length - 2 === field.maxLength && date[3]!.length === 4) return compact.slice(0, 4) + compact.slice(6);
  }
  return null;
}

/** Among fields a number fits, the one whose length fits it closely (13 digits: the 13-box field, not a 16-box one). */
function closeness(value: string, field: FillField): number {
  if (field.maxLength === undefined || !/^[\d\s./-]+$/.test(value)) return 0;
  return FILL_WEIGHTS.lengthFit * (lengthIn(value, field) / field.maxLength);
}

// ---- formatting ----

function parseDate(value: string, order?: string): { y: number; m: number; d: number } | undefined {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T.*)?$/.exec(value);
  if (m) return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  m = /^(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})$/.exec(value);
  if (m) {
    const month = ENGLISH_MONTHS.findIndex((name) => name.startsWith(m![2]!.toLowerCase().slice(0, 3)));
    if (month >= 0) return { y: Number(m[3]), m: month + 1, d: Number(m[1]) };
  }
  m = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(value);
  if (m) {
    const month = ENGLISH_MONTHS.findIndex((name) => name.startsWith(m![1]!.toLowerCase().slice(0, 3)));
    if (month >= 0) return { y: Number(m[3]), m: month + 1, d: Number(m[2]) };
  }
  // 14/02/2020, 14.02.2020, 02/14/2020: the day is the number above 12; when both could be, a dotted
  // date is day first and a slashed one is read in the order the field asks for.
  m = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$/.exec(value);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[3]), Number(m[4])];
    const dayFirst = a > 12 || (b <= 12 && (m[2] === '.' || order !== 'mdy'));
    const [d, mo] = dayFirst ? [a, b] : [b, a];
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31) return { y, m: mo, d };
  }
  return undefined;
}

/** The order, separator and year length a date hint asks for ("JJ/MM/AAAA", "TT.MM.JJJJ", "MM DD YYYY"). */
function hintOf(hint: string): { order: 'dmy' | 'mdy' | 'ymd'; sep: string; longYear: boolean } {
  const tokens = hint.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  const sep = /[^a-z]/i.exec(hint)?.[0] ?? '';
  const yearAt = tokens.findIndex((t) => t.length === 4 || /^(yy|aa)$/.test(t));
  const year = tokens[yearAt === -1 ? 2 : yearAt] ?? 'yyyy';
  const order = yearAt === 0 ? 'ymd' : tokens[0] === 'mm' ? 'mdy' : 'dmy';
  return { order, sep, longYear: year.length === 4 };
}

function formatDate(value: string, hint: string): string {
  const { order, sep, longYear } = hintOf(hint);
  const date = parseDate(value, order);
  if (!date) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  const year = longYear ? String(date.y) : pad(date.y % 100);
  if (order === 'ymd') return [date.y, pad(date.m), pad(date.d)].join(sep);
  if (order === 'dmy') return [pad(date.d), pad(date.m), year].join(sep);
  return [pad(date.m), pad(date.d), year].join(sep);
}

const DAY = '(?:dd|jj|tt|gg)';
const YEAR = '(?:yyyy|aaaa|jjjj|yy|aa)';
/** A date's format printed in a label or on its boxes: DD/MM/YYYY, JJ MM AAAA, TT.MM.JJJJ, MM/DD/YYYY, YYYY-MM-DD. */
const DATE_HINT = new RegExp(`\\b(?:${DAY}([/.\\- ]?)mm\\1${YEAR}|mm([/.\\- ]?)${DAY}\\2${YEAR}|${YEAR}([/.\\- ]?)mm\\3${DAY})\\b`, 'i');

function formatValue(values: string[], field: FillField): string | null {
  let value = values.join(', ');
  const label = `${field.description} ${field.key}`;
  const dateHint = DATE_HINT.exec(label);
  if (dateHint && values.length === 1) value = formatDate(value, dateHint[0]);
  else if (values.length === 1 && /^-?\d+(\.\d+)?$/.test(value) && /\$|€|£|\bamount\b|\bincome\b|\bsalary\b|\bprice\b|\btotal\b|\bbalance\b|\bdeposit\b/i.test(label)) {
    value = Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  // "168 cm" in a field labelled "Height (cm)": the unit is printed already.
  const unit = /^(-?\d+(?:[.,]\d+)?)\s*([\p{L}€$£%]{1,5})\.?$/u.exec(value);
  if (unit && new RegExp(`(?:^|[\\s(\\[/])${escapeRegExp(unit[2]!)}(?:$|[\\s)\\]/.:])`, 'iu').test(field.description)) value = unit[1]!;
  if (field.options && field.options.length > 0) {
    let best: string | null = null;
    let bestScore = FILL_WEIGHTS.optionMinSimilarity;
    for (const option of field.options) {
      const score = textSimilarity(value, option);
      if (score > bestScore) [best, bestScore] = [option, score];
    }
    return best;
  }
  return value;
}

// ---- statements read against the form's own options ----

const STATEMENT_SET = new Set(STATEMENT_WORDS);
const NEGATION_SET = new Set(NEGATIONS);

interface Said {
  /** Content stems: no function word, statement verb, yes/no or negation. */
  stems: string[];
  statement: boolean;
  negated: boolean;
  yes: boolean;
  no: boolean;
}

/** What a piece of a sentence says, word by word. */
function saidOf(text: string): Said {
  const out: Said = { stems: [], statement: false, negated: false, yes: false, no: false };
  for (const w of words(text)) {
    if (YES.has(w) && w.length > 1) out.yes = true;
    else if (NO.has(w) && w.length > 1) out.no = true;
    else if (NEGATION_SET.has(w)) out.negated = true;
    else if (STATEMENT_SET.has(w)) out.statement = true;
    else if (!(STOP_WORDS.has(w) || FORM_STOP_WORDS.has(w) || FUNCTION_WORDS.has(w)) && (w.length > 1 || /\d/.test(w))) out.stems.push(stemOf(w));
  }
  return out;
}

/** The numbers a text prints on their own ("978 du CGI", "35€"), not glued to a word ("Ermäßigte2"). */
const standaloneNumbers = (text: string) => [...text.matchAll(/(?<![\p{L}\d])\d+(?![\p{L}\d])/gu)].map((m) => m[0]);

/** Stems that are the same word: equal, or one long common beginning ("indemnis" / "indemnisee"). */
const sameStem = (a: string, b: string) => {
  const letters = FILL_WEIGHTS.sameStemLetters;
  return a === b || (a.length >= letters && b.length >= letters && a.slice(0, letters) === b.slice(0, letters) && Math.abs(a.length - b.length) <= FILL_WEIGHTS.sameStemLengthDifference);
};
const hasStem = (list: string[], stem: string) => list.some((s) => sameStem(s, stem));
/** How many of `n` words are most of them (FILL_WEIGHTS.mostShare, rounded up). */
const mostOf = (n: number) => Math.ceil(n * FILL_WEIGHTS.mostShare);

interface Choice {
  field: number;
  stems: string[];
  /** What the field is given when chosen: the option as listed, or "true" for a box. */
  value: string;
  answer: boolean | null;
}

interface ChoiceGroup {
  label: string[];
  choices: Choice[];
}

/** The form's choices: a list's options, the boxes of a group ("Gender: Woman"), a box alone (its statement). */
function choiceGroups(fields: FillField[], texts: FieldText[]): ChoiceGroup[] {
  const groups: ChoiceGroup[] = [];
  const byName = new Map<string, ChoiceGroup>();
  fields.forEach((field, i) => {
    const text = texts[i]!;
    if (field.type === 'text' && field.options && field.options.length > 0) {
      // The option as the form lists it (" PostgreSQL"): the form takes no other spelling.
      const choices = field.options.map((o) => ({ field: i, stems: saidOf(o).stems, value: o, answer: null }));
      const optionStems = new Set(choices.flatMap((c) => c.stems));
      groups.push({ label: text.all.filter((s) => !optionStems.has(s)), choices });
      return;
    }
    if (field.type !== 'checkbox') return;
    const option = text.group.length > 0 ? text.option : (text.option.split(/[.!?](?:\s|$)/)[0] ?? '');
    const said = saidOf(option);
    const choice: Choice = { field: i, stems: said.stems, value: 'true', answer: said.yes ? true : said.no ? false : null };
    // A box with no group printed before its option ("Deutsch" under "I speak and understand", on a
    // flat form) is an option of its section, as an AcroForm check box is of its group.
    const groupStems = text.group.length > 0 ? text.group : text.section;
    if (groupStems.length === 0) {
      groups.push({ label: [], choices: [choice] });
      return;
    }
    const name = text.group.length > 0 ? text.group.join(' ') : `› ${text.section.join(' ')}`;
    let group = byName.get(name);
    if (!group) {
      group = { label: [...new Set([...groupStems, ...text.keyGroup])].filter((s) => s.length > 1), choices: [] };
      byName.set(name, group);
      groups.push(group);
    }
    group.choices.push(choice);
  });
  return groups;
}

/**
 * Statements that name an option rather than a field: "I am a woman" (a list's option), "I speak German,
 * English and French" (boxes printed Deutsch, English, Français), "I hold a Master's degree" (a radio
 * button's text), "Oui, j'ai été indemnisée par la Caisse …" (the 'oui' box of that question),
 * "je suis membre de la famille …" (the box that says so). A piece of a sentence chooses an option when
 * it names the option's words and either the group's words too, or little else besides a statement's
 * verb; a list continues in the pieces after. An option named alike in two groups chooses neither.
 */
function statementFacts(instructions: string, fields: FillField[], texts: FieldText[]): Fact[] {
  const groups = choiceGroups(fields, texts);
  if (groups.length === 0) return [];
  const found = new Map<number, { value: string; score: number; groups: Set<ChoiceGroup>; key: string }>();
  const choose = (group: ChoiceGroup, choice: Choice, score: number, key: string) => {
    const old = found.get(choice.field);
    if (old && old.score >= score) return;
    found.set(choice.field, { value: choice.value, score, groups: new Set([group]), key });
  };
  const claims = new Map<string, Array<{ group: ChoiceGroup; choice: Choice; score: number; labelHit: boolean }>>();
  for (const line of instructions.split(/\r?\n/)) {
    for (const sentence of sentencesOf(line)) {
      const whole = saidOf(sentence);
      const pieces = sentence.split(/\s*[,;]\s+|\s+[–—-]\s+|\s*[()]\s*/).filter((p) => p.trim() !== '').map(saidOf);
      for (const group of groups) {
        const yesNo = group.choices.some((c) => c.answer !== null);
        if (yesNo) {
          // A question answered: its words said, and a yes or a no (or a statement, a negation).
          const label = group.label.filter((s) => s.length > 1);
          if (label.length < FILL_WEIGHTS.questionWords || label.filter((s) => hasStem(whole.stems, s)).length < mostOf(label.length)) continue;
          const answer = whole.yes ? true : whole.no || whole.negated ? false : whole.statement ? true : null;
          const choice = group.choices.find((c) => c.answer === answer);
          if (answer !== null && choice) choose(group, choice, FILL_WEIGHTS.questionAnswered, `${sentence}|${choice.field}`);
          continue;
        }
        let previous = false;
        pieces.forEach((piece, k) => {
          const named = group.choices.filter((c) => c.stems.length > 0 && c.stems.length <= FILL_WEIGHTS.optionWords && c.stems.every((s) => hasStem(piece.stems, s)));
          // The longest options only ("Backend developer", not also "developer").
          const chosen = named.filter((c) => !named.some((o) => o !== c && o.stems.length > c.stems.length && c.stems.every((s) => o.stems.includes(s))));
          if (chosen.length === 0 || piece.negated) {
            previous = false;
            return;
          }
          const used = chosen.flatMap((c) => c.stems);
          const rest = piece.stems.filter((s) => !hasStem(used, s));
          const labelHit = rest.some((s) => hasStem(group.label, s));
          const covered = used.length / (used.length + rest.length);
          const accepted = labelHit || (rest.length === 0 && (piece.statement || pieces.length === 1 || previous)) || (piece.statement && covered >= FILL_WEIGHTS.mostShare);
          previous = accepted;
          if (!accepted) return;
          for (const choice of chosen) {
            const key = `${sentence}|${k}|${choice.stems.join(' ')}`;
            claims.set(key, [...(claims.get(key) ?? []), { group, choice, score: labelHit ? 1 : FILL_WEIGHTS.optionWithoutLabel, labelHit }]);
          }
        });
        // A box alone that states a fact ("Je suis un membre de la famille de l'assuré(e)"): most of its words in one sentence.
        if (group.label.length === 0 && group.choices.length === 1) {
          const choice = group.choices[0]!;
          const stems = [...new Set(choice.stems)];
          // A number the box prints is what tells it from its neighbours ("978 du CGI", "200 du CGI"): it must be said.
          // (Digits glued to a word are a footnote's mark: "Vereinsstatuten1".)
          const numbersSaid = standaloneNumbers(texts[choice.field]!.option).every((n) => standaloneNumbers(sentence).includes(n));
          if (stems.length >= FILL_WEIGHTS.statementWords && numbersSaid && !whole.negated && stems.filter((s) => hasStem(whole.stems, s)).length >= mostOf(stems.length)) choose(group, choice, FILL_WEIGHTS.statementBox, `${sentence}|${choice.field}`);
        }
      }
    }
  }
  // An option named alike in several groups: only those whose words were said too, else none.
  for (const list of claims.values()) {
    const hits = list.filter((c) => c.labelHit);
    const kept = hits.length > 0 ? hits : list;
    if (new Set(kept.map((c) => c.group)).size > 1) continue;
    for (const c of kept) choose(c.group, c.choice, c.score, '');
  }
  for (const named of namedOptions(instructions, fields)) if (!found.has(named.field)) found.set(named.field, { value: named.value, score: FILL_WEIGHTS.namedOption, groups: new Set(), key: '' });
  const facts: Fact[] = [];
  for (const [field, f] of found) {
    const fact = makeFact(['option'], [], [f.value]);
    if (fact) facts.push({ ...fact, values: [f.value], bool: true, target: field, targetScore: f.score });
  }
  return facts;
}

const POSITION_WORDS = Object.entries(OPTION_POSITIONS).flatMap(([where, phrases]) => phrases.map((phrase) => ({ where: where as keyof typeof OPTION_POSITIONS, phrase })));
/** Text as spaced lower-case words (accents off), to find one text's words inside another's. */
const spaced = (text: string) => ` ${plain(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;

/**
 * A button named by where it is in a row of buttons printed alike ("In the 'Radio button, selected'
 * row, select the left-hand button"; "le bouton de droite de la ligne …"): a sentence that holds the
 * printed text of a row of two or more buttons (each's text alike, on one line of the page) and a
 * position word outside that text. The row named nearest the position word is meant; left and right
 * pick in the row, top and bottom in a column of such buttons.
 */
function positionFacts(instructions: string, fields: FillField[], texts: FieldText[]): Array<{ fact: Fact; row: number[] }> {
  const ticks = fields.flatMap((f, i) => (f.type === 'checkbox' && f.box ? [i] : []));
  if (ticks.length < 2) return [];
  const box = (i: number) => fields[i]!.box!;
  const sameRow = (a: number, b: number) => box(a).page === box(b).page && Math.abs(box(a).top + box(a).height / 2 - (box(b).top + box(b).height / 2)) < Math.max(box(a).height, box(b).height) / 2;
  const sameColumn = (a: number, b: number) => box(a).page === box(b).page && Math.abs(box(a).left + box(a).width / 2 - (box(b).left + box(b).width / 2)) < Math.max(box(a).width, box(b).width) / 2;
  const alike = (a: number, b: number) => textSimilarity(texts[a]!.option, texts[b]!.option) >= FILL_WEIGHTS.alikeOptions;
  const out: Array<{ fact: Fact; row: number[] }> = [];
  for (const line of instructions.split(/\r?\n/)) {
    for (const sentence of sentencesOf(line)) {
      const said = spaced(sentence);
      // Where each button's printed text is said.
      const named = ticks.flatMap((i) => {
        const printed = spaced(texts[i]!.option);
        if (printed.trim().length < FILL_WEIGHTS.positionTextCharacters) return [];
        const at = said.indexOf(printed);
        return at < 0 ? [] : [{ field: i, from: at, to: at + printed.length }];
      });
      if (named.length === 0) continue;
      for (const { where, phrase } of POSITION_WORDS) {
        const word = spaced(phrase);
        for (let at = said.indexOf(word); at >= 0; at = said.indexOf(word, at + 1)) {
          if (named.some((n) => at + 1 >= n.from && at + word.length - 1 <= n.to)) continue;
          const distance = (n: { from: number; to: number }) => (at >= n.to ? at - n.to : n.from - (at + word.length));
          const along = where === 'left' || where === 'right' ? sameRow : sameColumn;
          const rowOf = (field: number) => ticks.filter((i) => along(i, field) && alike(i, field));
          const nearest = named.filter((n) => rowOf(n.field).length >= 2).sort((a, b) => distance(a) - distance(b))[0];
          if (!nearest) continue;
          const row = rowOf(nearest.field);
          const pick = (score: (i: number) => number) => row.reduce((best, i) => (score(i) < score(best) ? i : best));
          const chosen =
            where === 'left' ? pick((i) => box(i).left) : where === 'right' ? pick((i) => -box(i).left) : where === 'top' ? pick((i) => box(i).top) : pick((i) => -box(i).top);
          const fact = makeFact(['option'], [], ['true']);
          if (fact && !out.some((o) => o.fact.target === chosen)) out.push({ fact: { ...fact, bool: true, target: chosen, targetScore: FILL_WEIGHTS.positionChosen }, row });
        }
      }
    }
  }
  return out;
}

/**
 * A list's option written in the text exactly as the form prints it ("I'm Ingrid from Sweden" and a
 * list of countries holding "Sweden"): a proper name (a capital inside it, four letters or more), not
 * at a sentence's start, the only option of its list so named, and named in no other list.
 */
function namedOptions(instructions: string, fields: FillField[]): Array<{ field: number; value: string }> {
  const out: Array<{ field: number; value: string }> = [];
  const lists = new Map<string, number>();
  fields.forEach((field, i) => {
    if (field.type !== 'text' || !field.options || field.options.length < 2) return;
    const named = field.options.filter((o) => properOption(o) && writtenInside(instructions, o.trim()));
    if (named.length !== 1) return;
    const key = plain(named[0]!.trim());
    lists.set(key, lists.has(key) ? -1 : i);
    out.push({ field: i, value: named[0]! });
  });
  return out.filter((o) => lists.get(plain(o.value.trim())) === o.field);
}

const properOption = (option: string) => /\p{Lu}/u.test(option) && option.trim().replace(/[^\p{L}]/gu, '').length >= FILL_WEIGHTS.properNameLetters;

/** The text holds the words as written, whole, and not first in a sentence (where any word has a capital). */
function writtenInside(text: string, words: string): boolean {
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(words)}(?![\\p{L}\\p{N}])`, 'gu');
  for (const m of text.matchAll(re)) {
    const before = text.slice(0, m.index).trimEnd();
    if (before !== '' && !/[.!?:;\n]$/.test(before)) return true;
  }
  return false;
}

// ---- assignment ----

export function fillForm(request: FillRequest): FillResult {
  const texts = request.fields.map(fieldTextOf);
  for (const i of signingPlaces(request.fields)) texts[i] = { ...texts[i]!, all: [...texts[i]!.all, ...SIGN_PLACE_STEMS] };
  const positioned = positionFacts(request.instructions, request.fields, texts);
  const decided = new Set(positioned.flatMap((p) => p.row));
  const facts = [...factsOf(request.instructions, vocabularyOf(request.fields, texts)), ...statementFacts(request.instructions, request.fields, texts), ...positioned.map((p) => p.fact)];
  const candidates: Candidate[] = [];
  const chosen = new Set(positioned.map((p) => p.fact));
  facts.forEach((fact, f) => {
    // A row whose button was chosen by position takes nothing else.
    request.fields.forEach((field, i) => candidates.push(...candidatesFor(fact, f, field, i, texts[i]!).filter((c) => chosen.has(fact) || !decided.has(c.field))));
  });
  // What is said of one block's party ("la donatrice …, elle habite …", "nom du donateur") goes to that
  // block's fields, never to another titled block's.
  const blockWords = new Set(texts.flatMap((t) => t.block));
  for (let i = candidates.length - 1; i >= 0; i--) {
    const c = candidates[i]!;
    const fact = facts[c.fact]!;
    const named = [...fact.name, ...fact.context].filter((s) => blockWords.has(s));
    const block = texts[c.field]!.block;
    if (named.length > 0 && block.length > 0 && !named.some((s) => block.includes(s))) candidates.splice(i, 1);
  }
  // A page printed again (the form's second copy, "volet 2"): its fields rank below the first copy's.
  const copies = repeatedFields(request.fields);
  for (const c of candidates) if (copies.has(c.field)) c.score -= FILL_WEIGHTS.copyPenalty;
  // Best first; ties go to the earlier field, then the earlier fact (reading order).
  candidates.sort((a, b) => b.score - a.score || a.field - b.field || a.fact - b.fact);
  dropAmbiguous(candidates, facts, texts);
  // A value and its parts are written once: when a part found its own field (the family name, the
  // house number), the whole (the full name, the street line) is not written too, and the fill is redone.
  const banned = new Set<Fact>();
  let result = assign(request, facts, texts, candidates, banned);
  for (let round = 0; round < FILL_WEIGHTS.refillRounds; round++) {
    const placed = new Set(result.placed);
    const wholes = new Set(facts.filter((f) => f.whole && placed.has(f) && placed.has(f.whole) && !banned.has(f.whole)).map((f) => f.whole!));
    if (wholes.size === 0) break;
    for (const w of wholes) banned.add(w);
    result = assign(request, facts, texts, candidates, banned);
  }
  return { values: result.values };
}

const SIGN_PLACE_STEMS = analyse('signplace').stems;
/** A label that is only a comma and a date's lead word (", le", ", den"): the date after a place. */
const PLACE_THEN_DATE = new RegExp(`^[\\s,]*,\\s*(?:${DATE_LEAD_WORDS.join('|')})\\s*$`, 'iu');

/**
 * Boxes printed "______, le ______" ("______, den ______"): the unlabelled box before ", le" and a
 * date is where the document is signed, as "Fait à" would say.
 */
function signingPlaces(fields: FillField[]): number[] {
  const out: number[] = [];
  fields.forEach((field, i) => {
    const box = field.box;
    if (!box || field.type !== 'text' || words(printedLabel(field)).length > 0) return;
    const middle = box.top + box.height / 2;
    const next = fields
      .filter((o) => o !== field && o.box && o.box.page === box.page && Math.abs(o.box.top + o.box.height / 2 - middle) < box.height / 2 && o.box.left >= box.left + box.width - FILL_WEIGHTS.placeEdge)
      .sort((a, b) => a.box!.left - b.box!.left)[0];
    if (next && next.box!.left - (box.left + box.width) < FILL_WEIGHTS.placeBeforeDate && PLACE_THEN_DATE.test(printedLabel(next))) out.push(i);
  });
  return out;
}

/** Fields printed as an earlier page prints one (the same label at the same place): a copy of the form. */
function repeatedFields(fields: FillField[]): Set<number> {
  const out = new Set<number>();
  fields.forEach((field, i) => {
    const box = field.box;
    if (!box || field.description === '') return;
    const earlier = fields.some(
      (other, j) => j !== i && other.box !== undefined && other.box.page < box.page && other.description === field.description && Math.abs(other.box.left - box.left) < FILL_WEIGHTS.samePlace && Math.abs(other.box.top - box.top) < FILL_WEIGHTS.samePlace,
    );
    if (earlier) out.add(i);
  });
  return out;
}

/**
 * A fact that fits two fields of different sections equally well and names neither section (the
 * writer's "second address line" against the employer's and the accountant's) is not written: which
 * one is meant cannot be told, and a value in the wrong party's box is worse than none. Nor is one
 * that fits two fields equally well by different words of its name.
 */
function dropAmbiguous(candidates: Candidate[], facts: Fact[], texts: FieldText[]): void {
  const best = new Map<number, Candidate[]>();
  for (const c of candidates) {
    const top = best.get(c.fact);
    if (!top) best.set(c.fact, [c]);
    else if (Math.abs(top[0]!.score - c.score) < 1e-9) top.push(c);
  }
  const ambiguous = new Set<number>();
  for (const [f, top] of best) {
    // Two fields as good, each for another of the fact's words ("il totale della fattura": "data
    // fattura" by one word, "totale generale" by the other): which one is meant cannot be told either.
    const matched = top.map((c) => facts[f]!.name.filter((s) => texts[c.field]!.all.includes(s)));
    const apart = (a: string[], b: string[]) => a.some((s) => !b.includes(s)) && b.some((s) => !a.includes(s));
    if (matched.some((a, i) => matched.some((b, j) => j > i && apart(a, b)))) {
      ambiguous.add(f);
      continue;
    }
    const sections = new Set(top.map((c) => texts[c.field]!.section.join(' ')));
    if (top.length < 2 || sections.size < 2 || sections.has('')) continue;
    const said = new Set([...facts[f]!.name, ...facts[f]!.context]);
    if (!top.some((c) => texts[c.field]!.section.some((s) => said.has(s)))) ambiguous.add(f);
  }
  for (let i = candidates.length - 1; i >= 0; i--) if (ambiguous.has(candidates[i]!.fact)) candidates.splice(i, 1);
}

function assign(request: FillRequest, facts: Fact[], texts: FieldText[], candidates: Candidate[], banned: Set<Fact>): { values: Array<string | null>; placed: Fact[] } {
  const values: Array<string | null> = request.fields.map(() => null);
  const uses = facts.map(() => 0);
  const ticked = new Map<number, number[]>();
  const byStatement = new Set<number>();
  for (const c of candidates) {
    if (banned.has(facts[c.fact]!)) continue;
    const fact = facts[c.fact]!;
    if (values[c.field] !== null) {
      // A statement chose this field's option already; a fact saying the same is placed there too.
      if (byStatement.has(c.field) && values[c.field] === c.value && fact.target === undefined && uses[c.fact] === 0) uses[c.fact]!++;
      continue;
    }
    if (fact.target !== undefined) byStatement.add(c.field);
    const isOptionTick = request.fields[c.field]!.type === 'checkbox' && fact.bool === null;
    if (uses[c.fact]! >= (isOptionTick ? itemsOf(fact).length : 1)) continue;
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
  return { values, placed: facts.filter((_, i) => uses[i]! > 0) };
}

export const localFormFiller: FormFiller = {
  async fill(request) {
    return fillForm(request);
  },
};
