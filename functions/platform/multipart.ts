/**
 * multipart/form-data request bodies (RFC 7578), for the few routes that take an upload as a form
 * (the Retab SDKs upload tables that way). Text parts become strings, file parts `FormFile`s.
 */
import { Invalid } from './errors.ts';

export interface FormFile {
  filename: string;
  contentType: string | undefined;
  bytes: Buffer;
}

export type FormValue = string | FormFile;

export function isMultipart(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith('multipart/form-data');
}

function boundaryOf(contentType: string): string {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw Invalid.at(['body'], 'multipart/form-data without a boundary', 'multipart_invalid');
  return boundary;
}

function headerParam(header: string, name: string): string | undefined {
  // filename*=UTF-8''... (RFC 5987) wins over filename="...".
  const extended = new RegExp(`${name}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(header);
  if (extended) return decodeURIComponent(extended[1]!);
  const quoted = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const bare = new RegExp(`(?:^|;)\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  return bare?.[1];
}

/** Parses a multipart body into its named parts (a repeated name keeps the first part). */
export function parseMultipart(body: Buffer, contentType: string): Record<string, FormValue> {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const out: Record<string, FormValue> = {};
  let at = body.indexOf(delimiter);
  if (at < 0) throw Invalid.at(['body'], 'multipart/form-data body without its boundary', 'multipart_invalid');
  for (;;) {
    at += delimiter.length;
    // "--" after a delimiter closes the body.
    if (body[at] === 45 && body[at + 1] === 45) break;
    if (body[at] === 13 && body[at + 1] === 10) at += 2;
    else if (body[at] === 10) at += 1;
    const headersEnd = body.indexOf('\r\n\r\n', at);
    if (headersEnd < 0) throw Invalid.at(['body'], 'multipart/form-data part without headers', 'multipart_invalid');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4);
    if (next < 0) throw Invalid.at(['body'], 'multipart/form-data body is truncated (no closing boundary)', 'multipart_invalid');
    const headers = body.subarray(at, headersEnd).toString('utf8').split(/\r\n/);
    const content = body.subarray(headersEnd + 4, next);
    const disposition = headers.find((h) => /^content-disposition:/i.test(h)) ?? '';
    const type = headers.find((h) => /^content-type:/i.test(h))?.split(':')[1]?.trim();
    const name = headerParam(disposition, 'name');
    const filename = headerParam(disposition, 'filename');
    if (name !== undefined && !(name in out) && name !== '__proto__') {
      out[name] = filename !== undefined ? { filename, contentType: type, bytes: Buffer.from(content) } : content.toString('utf8');
    }
    at = next + 2;
  }
  return out;
}
