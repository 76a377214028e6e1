/**
 * Outbound HTTP to user-configured URLs: the POST of one webhook delivery attempt
 * (functions/webhooks/task.ts) and a workflow's api_call (functions/workflows/blocks.ts).
 */
import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress } from './urls.ts';

/**
 * One POST; resolves to the status code, or rejects (timeout, refused, private address, ...).
 * node:http(s) rather than fetch: it follows no redirects, and its `lookup` hook checks the very
 * address the connection uses, so a name cannot resolve to a public address for the check and to a
 * private one for the connection (DNS rebinding).
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (!allowPrivate && addresses.some(isPrivateAddress)) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), address, family);
      }
      callback(null, address, family);
    });
  };
}

export function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, allowPrivate: boolean): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(allowPrivate) }, (res) => {
      // The receiver's answer is not read: only its status counts.
      res.resume();
      clearTimeout(timer);
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    // The whole attempt, connection included, ends at the timeout.
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}


/**
 * A GET or POST whose answer is read (at most `maxBytes`): the same guarded lookup, no redirects
 * followed, the whole call bounded by `timeoutMs`.
 */
export function call(
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: { timeoutMs: number; allowPrivate: boolean; maxBytes: number },
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method, headers: sent, lookup: guardedLookup(options.allowPrivate) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) req.destroy(Object.assign(new Error(`the answer is over ${options.maxBytes} bytes`), { code: 'ETOOLARGE' }));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), options.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}
