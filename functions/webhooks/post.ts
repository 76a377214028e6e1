/** The HTTP POST of one delivery attempt (functions/webhooks/task.ts). */
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
export function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, allowPrivate: boolean): Promise<number> {
  const target = new URL(url);
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (!allowPrivate && addresses.some(isPrivateAddress)) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), address, family);
      }
      callback(null, address, family);
    });
  };
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup }, (res) => {
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

