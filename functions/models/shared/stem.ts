/**
 * The Porter stemmer (M.F. Porter, 1980, "An algorithm for suffix stripping"), in its original form
 * plus the two small revisions of the reference implementation (abli→able becomes bli→ble, logi→log).
 * Stems only have to agree with each other (query and document go through the same function), so
 * the classic algorithm is plenty: "invoices", "invoiced", "invoicing" all become "invoic".
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/** Whether word[i] is a consonant: not a vowel, and `y` only after a vowel (or at the start). */
function isConsonant(word: string, i: number): boolean {
  const c = word[i]!;
  if (VOWELS.has(c)) return false;
  if (c === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** m, the number of vowel-consonant sequences in `stem` ([C](VC)^m[V]). */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y (hop → hope, but not snow). */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  const last = word[n - 1]!;
  return isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && last !== 'w' && last !== 'x' && last !== 'y';
}

/** Replaces the first matching suffix of `rules` when the remaining stem satisfies `condition`. */
function replaceSuffix(word: string, rules: ReadonlyArray<readonly [string, string]>, condition: (stem: string) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return condition(stem) ? stem + replacement : word;
  }
  return word;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
// Longest suffixes first, so "ational" wins over "tional" and "ation".
const STEP2_SORTED = [...STEP2].sort((a, b) => b[0].length - a[0].length);

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];

const STEP4 = ['ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ion', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'al', 'er', 'ic', 'ou'];

/**
 * Nouns of their own that suffix stripping would merge with an unrelated word (as Porter2 keeps an
 * exception list): a booking is a reservation, not a book, and "Book rooms with locals" is no booking.
 */
const OWN_STEMS: ReadonlyMap<string, string> = new Map([
  ['booking', 'booking'],
  ['bookings', 'booking'],
]);

export function porterStem(input: string): string {
  let word = input;
  if (word.length <= 2) return word;
  const own = OWN_STEMS.get(word);
  if (own) return own;

  // Step 1a: plurals.
  if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (word.endsWith('ies')) word = word.slice(0, -2);
  else if (!word.endsWith('ss') && word.endsWith('s')) word = word.slice(0, -1);

  // Step 1b: -eed, -ed, -ing.
  if (word.endsWith('eed')) {
    if (measure(word.slice(0, -3)) > 0) word = word.slice(0, -1);
  } else {
    let stripped: string | undefined;
    if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) stripped = word.slice(0, -2);
    else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) stripped = word.slice(0, -3);
    if (stripped !== undefined) {
      word = stripped;
      if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word += 'e';
      else if (endsDoubleConsonant(word) && !/[lsz]$/.test(word)) word = word.slice(0, -1);
      else if (measure(word) === 1 && endsCvc(word)) word += 'e';
    }
  }

  // Step 1c: y → i after a vowel somewhere in the stem.
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = `${word.slice(0, -1)}i`;

  // Steps 2 and 3: double and single suffixes mapped to simpler ones.
  word = replaceSuffix(word, STEP2_SORTED, (stem) => measure(stem) > 0);
  word = replaceSuffix(word, STEP3, (stem) => measure(stem) > 0);

  // Step 4: strip a final suffix where the stem is long enough (m > 1).
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    if (measure(stem) > 1 && (suffix !== 'ion' || /[st]$/.test(stem))) word = stem;
    break;
  }

  // Step 5: a final -e, and -ll → -l.
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) word = stem;
  }
  if (word.endsWith('ll') && measure(word) > 1) word = word.slice(0, -1);
  return word;
}
