/**
 * A small, safe expression language for workflow conditions and `function` blocks. User text is
 * parsed here into a tree and interpreted here: it never reaches `eval` or `new Function`, can call
 * only the pure functions listed in FUNCTIONS, reads only the values it is given (own properties:
 * no prototypes, no `constructor`), does no I/O, and stops with an ExpressionError once it has
 * taken `budget` steps or built a value larger than the size cap.
 *
 *   literals     12  3.5  'text'  "text"  true  false  null  [1, 2]  {"a": 1, b: input.x}
 *   names        input  input.total  input["line items"][0].amount
 *   operators    !x  -x  not x   * / %   + -   < <= > >=   == !=   in   && and   || or   ??   c ? a : b
 *   functions    len lower upper trim contains starts_with ends_with number string boolean round
 *                floor ceil abs min max sum keys values exists is_null coalesce join split slice
 *
 * `==` compares by value (arrays and objects too); `+` adds numbers or joins strings; `in` tests
 * membership in an array, a key of an object or a substring.
 */

export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

type Node =
  | { k: 'lit'; v: unknown }
  | { k: 'name'; name: string }
  | { k: 'member'; object: Node; key: Node }
  | { k: 'array'; items: Node[] }
  | { k: 'object'; entries: Array<[string, Node]> }
  | { k: 'unary'; op: string; arg: Node }
  | { k: 'binary'; op: string; left: Node; right: Node }
  | { k: 'cond'; test: Node; then: Node; else: Node }
  | { k: 'call'; fn: string; args: Node[] };

export const MAX_EXPRESSION_LENGTH = 10_000;
export const DEFAULT_BUDGET = 10_000;
const MAX_VALUE_CHARS = 1_000_000;
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

// ── Tokens ───────────────────────────────────────────────────────────────────────────────────────

type Token = { t: 'num'; v: number; at: number } | { t: 'str'; v: string; at: number } | { t: 'id'; v: string; at: number } | { t: 'op'; v: string; at: number } | { t: 'end'; at: number };

const OPERATORS = ['&&', '||', '??', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i))!;
      tokens.push({ t: 'num', v: Number(m[0]), at: i });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let out = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') {
          const next = text[j + 1];
          out += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
          j += 2;
        } else out += text[j++];
      }
      if (j >= text.length) throw new ExpressionError(`unterminated string starting at ${i}`);
      tokens.push({ t: 'str', v: out, at: i });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i))!;
      tokens.push({ t: 'id', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) throw new ExpressionError(`unexpected character "${c}" at ${i}`);
    tokens.push({ t: 'op', v: op, at: i });
    i += op.length;
  }
  tokens.push({ t: 'end', at: text.length });
  return tokens;
}

// ── Parser (precedence climbing) ────────────────────────────────────────────────────────────────

const BINARY: Record<string, number> = { '??': 1, '||': 2, or: 2, '&&': 3, and: 3, '==': 4, '!=': 4, '<': 5, '<=': 5, '>': 5, '>=': 5, in: 5, '+': 6, '-': 6, '*': 7, '/': 7, '%': 7 };

export function parseExpression(text: string): Node {
  if (typeof text !== 'string' || !text.trim()) throw new ExpressionError('the expression is empty');
  if (text.length > MAX_EXPRESSION_LENGTH) throw new ExpressionError(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const isOp = (v: string) => {
    const t = peek();
    return (t.t === 'op' || t.t === 'id') && t.v === v;
  };
  const expect = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`expected "${v}" at ${peek().at}`);
    pos++;
  };
  let depth = 0;

  const expression = (): Node => {
    if (++depth > 100) throw new ExpressionError('the expression is nested too deeply');
    const test = binary(0);
    let node = test;
    if (isOp('?')) {
      pos++;
      const then = expression();
      expect(':');
      node = { k: 'cond', test, then, else: expression() };
    }
    depth--;
    return node;
  };

  const binary = (min: number): Node => {
    let left = unary();
    for (;;) {
      const t = peek();
      const name = t.t === 'op' || t.t === 'id' ? t.v : undefined;
      const prec = name !== undefined && Object.hasOwn(BINARY, name) ? BINARY[name] : undefined;
      if (prec === undefined || prec <= min) return left;
      pos++;
      const op = name === 'and' ? '&&' : name === 'or' ? '||' : name!;
      left = { k: 'binary', op, left, right: binary(prec) };
    }
  };

  const unary = (): Node => {
    if (isOp('!') || isOp('not')) {
      pos++;
      return { k: 'unary', op: '!', arg: unary() };
    }
    if (isOp('-')) {
      pos++;
      return { k: 'unary', op: '-', arg: unary() };
    }
    return postfix(primary());
  };

  const postfix = (node: Node): Node => {
    for (;;) {
      if (isOp('.')) {
        pos++;
        const t = peek();
        if (t.t !== 'id') throw new ExpressionError(`expected a name after "." at ${t.at}`);
        pos++;
        node = { k: 'member', object: node, key: { k: 'lit', v: t.v } };
      } else if (isOp('[')) {
        pos++;
        const key = expression();
        expect(']');
        node = { k: 'member', object: node, key };
      } else if (isOp('(')) throw new ExpressionError(`only the listed functions can be called (e.g. len(x)); "(" at ${peek().at} follows a value`);
      else return node;
    }
  };

  const list = (close: string): Node[] => {
    const items: Node[] = [];
    while (!isOp(close)) {
      items.push(expression());
      if (!isOp(close)) expect(',');
    }
    pos++;
    return items;
  };

  const primary = (): Node => {
    const t = peek();
    pos++;
    if (t.t === 'num' || t.t === 'str') return { k: 'lit', v: t.v };
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') return { k: 'lit', v: t.v === 'true' };
      if (t.v === 'null') return { k: 'lit', v: null };
      if (isOp('(')) {
        pos++;
        if (!Object.hasOwn(FUNCTIONS, t.v)) throw new ExpressionError(`unknown function ${t.v}() (known: ${Object.keys(FUNCTIONS).join(', ')})`);
        return { k: 'call', fn: t.v, args: list(')') };
      }
      return { k: 'name', name: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      const inner = expression();
      expect(')');
      return inner;
    }
    if (t.t === 'op' && t.v === '[') return { k: 'array', items: list(']') };
    if (t.t === 'op' && t.v === '{') {
      const entries: Array<[string, Node]> = [];
      while (!isOp('}')) {
        const key = peek();
        if (key.t !== 'id' && key.t !== 'str') throw new ExpressionError(`expected a key at ${key.at}`);
        pos++;
        expect(':');
        entries.push([key.v, expression()]);
        if (!isOp('}')) expect(',');
      }
      pos++;
      return { k: 'object', entries };
    }
    throw new ExpressionError(t.t === 'end' ? 'the expression ends too early' : `unexpected "${(t as { v: unknown }).v}" at ${t.at}`);
  };

  const node = expression();
  if (peek().t !== 'end') throw new ExpressionError(`unexpected "${(peek() as { v: unknown }).v}" at ${peek().at}`);
  return node;
}

// ── Values and functions ────────────────────────────────────────────────────────────────────────

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

const num = (v: unknown, fn: string): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (Number.isNaN(n)) throw new ExpressionError(`${fn}() needs a number, got ${JSON.stringify(v)}`);
  return n;
};
const str = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));
const numbers = (args: unknown[], fn: string) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args).map((v) => num(v, fn));

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  len: (v) => (typeof v === 'string' || Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : 0),
  lower: (v) => str(v).toLowerCase(),
  upper: (v) => str(v).toUpperCase(),
  trim: (v) => str(v).trim(),
  contains: (hay, needle) => (Array.isArray(hay) ? hay.some((x) => sameValue(x, needle)) : str(hay).includes(str(needle))),
  starts_with: (v, prefix) => str(v).startsWith(str(prefix)),
  ends_with: (v, suffix) => str(v).endsWith(str(suffix)),
  number: (v) => num(v, 'number'),
  string: (v) => str(v),
  boolean: (v) => truthy(v),
  round: (v, digits) => {
    const f = 10 ** (digits === undefined ? 0 : num(digits, 'round'));
    return Math.round(num(v, 'round') * f) / f;
  },
  floor: (v) => Math.floor(num(v, 'floor')),
  ceil: (v) => Math.ceil(num(v, 'ceil')),
  abs: (v) => Math.abs(num(v, 'abs')),
  min: (...args) => Math.min(...numbers(args, 'min')),
  max: (...args) => Math.max(...numbers(args, 'max')),
  sum: (...args) => numbers(args, 'sum').reduce((a, b) => a + b, 0),
  keys: (v) => (isObject(v) ? Object.keys(v) : []),
  values: (v) => (isObject(v) ? Object.values(v) : Array.isArray(v) ? v : []),
  exists: (v) => v !== undefined && v !== null,
  is_null: (v) => v === undefined || v === null,
  coalesce: (...args) => args.find((v) => v !== undefined && v !== null) ?? null,
  join: (v, sep) => (Array.isArray(v) ? v.map(str).join(sep === undefined ? ',' : str(sep)) : str(v)),
  split: (v, sep) => str(v).split(str(sep)),
  slice: (v, start, end) => (typeof v === 'string' || Array.isArray(v) ? v.slice(num(start ?? 0, 'slice'), end === undefined ? undefined : num(end, 'slice')) : null),
};

export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

// ── Interpreter ─────────────────────────────────────────────────────────────────────────────────

/** Evaluates `text` (or a parsed tree) over `scope` (names → values) within `budget` steps. */
export function evaluate(text: string | Node, scope: Record<string, unknown>, budget = DEFAULT_BUDGET): unknown {
  const tree = typeof text === 'string' ? parseExpression(text) : text;
  let steps = 0;
  const size = (v: unknown) => {
    if (typeof v === 'string' && v.length > MAX_VALUE_CHARS) throw new ExpressionError(`a value grew past ${MAX_VALUE_CHARS} characters`);
    if (Array.isArray(v) && v.length > MAX_VALUE_CHARS) throw new ExpressionError(`a list grew past ${MAX_VALUE_CHARS} items`);
    return v;
  };
  const ev = (node: Node): unknown => {
    if (++steps > budget) throw new ExpressionError(`the expression took more than ${budget} steps`);
    switch (node.k) {
      case 'lit':
        return node.v;
      case 'name':
        if (!Object.hasOwn(scope, node.name)) throw new ExpressionError(`unknown name "${node.name}" (known: ${Object.keys(scope).join(', ')})`);
        return scope[node.name];
      case 'member': {
        const object = ev(node.object);
        const key = ev(node.key);
        if (object === null || object === undefined) return null;
        if (Array.isArray(object) && typeof key === 'number') return object.at(key) ?? null;
        if (typeof object === 'string' && typeof key === 'number') return object.at(key) ?? null;
        if (typeof key !== 'string' && typeof key !== 'number') throw new ExpressionError(`a key must be a string or a number, got ${JSON.stringify(key)}`);
        const name = String(key);
        if (FORBIDDEN_KEYS.has(name)) throw new ExpressionError(`"${name}" cannot be read`);
        if (name === 'length' && (Array.isArray(object) || typeof object === 'string')) return object.length;
        return isObject(object) && Object.hasOwn(object, name) ? object[name] : null;
      }
      case 'array':
        return size(node.items.map(ev));
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [key, value] of node.entries) {
          if (FORBIDDEN_KEYS.has(key)) throw new ExpressionError(`"${key}" cannot be a key`);
          out[key] = ev(value);
        }
        return out;
      }
      case 'unary': {
        const v = ev(node.arg);
        return node.op === '!' ? !truthy(v) : -num(v, 'minus');
      }
      case 'cond':
        return truthy(ev(node.test)) ? ev(node.then) : ev(node.else);
      case 'call':
        return size(FUNCTIONS[node.fn]!(...node.args.map(ev)));
      case 'binary': {
        if (node.op === '&&') return truthy(ev(node.left)) ? ev(node.right) : false;
        if (node.op === '||') {
          const left = ev(node.left);
          return truthy(left) ? left : ev(node.right);
        }
        if (node.op === '??') {
          const left = ev(node.left);
          return left === null || left === undefined ? ev(node.right) : left;
        }
        const a = ev(node.left);
        const b = ev(node.right);
        switch (node.op) {
          case '==':
            return sameValue(a, b);
          case '!=':
            return !sameValue(a, b);
          case '<':
          case '<=':
          case '>':
          case '>=': {
            if (a === null || b === null || a === undefined || b === undefined) return false;
            const [x, y] = typeof a === 'string' && typeof b === 'string' ? [a, b] : [num(a, node.op), num(b, node.op)];
            return node.op === '<' ? x < y : node.op === '<=' ? x <= y : node.op === '>' ? x > y : x >= y;
          }
          case 'in':
            if (Array.isArray(b)) return b.some((x) => sameValue(x, a));
            if (isObject(b)) return Object.hasOwn(b, str(a));
            return str(b).includes(str(a));
          case '+':
            if (typeof a === 'number' && typeof b === 'number') return a + b;
            if (Array.isArray(a) && Array.isArray(b)) return size([...a, ...b]);
            return size(str(a) + str(b));
          case '-':
            return num(a, '-') - num(b, '-');
          case '*':
            return num(a, '*') * num(b, '*');
          case '/': {
            const d = num(b, '/');
            if (d === 0) throw new ExpressionError('division by zero');
            return num(a, '/') / d;
          }
          case '%':
            return num(a, '%') % num(b, '%');
        }
      }
    }
    throw new ExpressionError('unknown expression');
  };
  return ev(tree);
}

/** The problem of an expression's text, or undefined when it parses. */
export function expressionProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return 'must be a string (an expression)';
  try {
    parseExpression(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
