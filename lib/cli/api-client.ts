/**
 * The client CLI's HTTP client: one Quire deployment (base URL) and one API key. Errors come out as
 * two distinct kinds, so the CLI can give them distinct exit codes: ApiError (the API answered with a
 * non-2xx) and NetworkError (nothing usable came back).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

export class NetworkError extends Error {}

export interface Query {
  [name: string]: string | number | boolean | string[] | undefined;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
  ) {}

  url(path: string, query: Query = {}): string {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
    }
    return url.toString();
  }

  /** Sends a request and returns the raw response (2xx only; anything else throws ApiError). */
  async send(method: string, path: string, options: { query?: Query; json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    let response: Response;
    try {
      // A 303 (response over 6 MB) is followed to the presigned JSON: a GET without our key.
      response = await fetch(this.url(path, options.query), { method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new NetworkError(`Cannot reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    if (!response.ok) {
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      throw new ApiError(response.status, parsed);
    }
    return response;
  }

  /** A JSON request; 204 answers undefined. */
  async call<T = any>(method: string, path: string, options: { query?: Query; json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> } = {}): Promise<T> {
    const response = await this.send(method, path, options);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      return text as T;
    }
  }
}

/**
 * PUTs a stream to a presigned URL with an explicit Content-Length (S3 refuses chunked uploads),
 * reporting progress as bytes are handed to the socket.
 */
export function putStream(url: string, headers: Record<string, string>, body: Readable, size: number, onProgress: (sent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method: 'PUT', headers: { ...headers, 'content-length': String(size) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new ApiError(status, Buffer.concat(chunks).toString('utf8').slice(0, 500)));
      });
    });
    request.on('error', (error) => reject(new NetworkError(`Upload to storage failed: ${error.message}`)));
    let sent = 0;
    body.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (!request.write(chunk)) body.pause();
      onProgress(sent);
    });
    request.on('drain', () => body.resume());
    body.on('end', () => request.end());
    body.on('error', (error) => request.destroy(error));
  });
}
