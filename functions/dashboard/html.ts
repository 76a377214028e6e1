/**
 * HTML built by tagged templates: every interpolated value is escaped unless it is already Html
 * (made by `html` itself, or `raw` for trusted constants). Arrays are joined.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}

/** Trusted markup (constants only, never request data). */
export function raw(value: string): Html {
  return new Html(value);
}

/**
 * JSON for a `<script type="application/json">` data block: `<` is escaped so no value can close the
 * element, and U+2028/9 for old parsers.
 */
export function jsonBlock(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
}
