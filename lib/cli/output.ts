/**
 * Terminal output of the client CLI: aligned tables, API errors as readable text, and a status line
 * (rewritten in place on a terminal, one line per change otherwise).
 */

export class UsageError extends Error {}

/** Left-aligned columns separated by two spaces; cells are cut at `maxWidth` characters. */
export function renderTable(headers: string[], rows: Array<Array<unknown>>, maxWidth = 48): string {
  const cell = (v: unknown) => {
    const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const flat = text.replace(/\s+/g, ' ');
    return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const table = [headers, ...rows.map((r) => r.map(cell))];
  const widths = headers.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(table[0]!), line(widths.map((w) => '-'.repeat(w))), ...table.slice(1).map(line)].join('\n');
}

/** An API error body as text: 422 details as `loc: msg` lines, other details as they are. */
export function renderApiError(status: number, body: unknown): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (Array.isArray(detail)) {
    const lines = detail.map((d: { loc?: unknown[]; msg?: string }) => `  ${(d.loc ?? []).join('.')}: ${d.msg ?? JSON.stringify(d)}`);
    return `Error ${status}: the request is invalid\n${lines.join('\n')}`;
  }
  if (typeof detail === 'string') return `Error ${status}: ${detail}`;
  if (detail && typeof detail === 'object') {
    const { message, code, ...rest } = detail as { message?: string; code?: string };
    return `Error ${status}: ${message ?? code ?? ''}${Object.keys(rest).length ? `\n${JSON.stringify(rest, null, 2)}` : ''}`;
  }
  return `Error ${status}: ${typeof body === 'string' ? body.slice(0, 500) : JSON.stringify(body)}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** A one-line status on stderr: rewritten in place on a terminal; otherwise printed when it changes. */
export class StatusLine {
  private last = '';
  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(text: string): void {
    if (text === this.last) return;
    this.last = text;
    if (this.stream.isTTY) this.stream.write(`\r\x1b[2K${text}`);
    else this.stream.write(`${text}\n`);
  }

  done(): void {
    if (this.stream.isTTY && this.last) this.stream.write('\n');
    this.last = '';
  }
}

/** "[#########-----------]  45%  4.5 MB / 10.0 MB" */
export function progressBar(sent: number, total: number, width = 24): string {
  const share = total ? sent / total : 1;
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${formatBytes(sent)} / ${formatBytes(total)}`;
}
