/**
 * Which webhook URLs Quire may call (API §12): `https://` always; `http://` and private, loopback,
 * link-local or otherwise internal addresses only where the deployment allows them
 * (`QUIRE_ALLOW_PRIVATE_URLS=true`: the local runtime and its tests; never by default on AWS).
 *
 * Checked on PUT and before every delivery attempt (the URL as written), and during the attempt on
 * the address the connection actually uses (webhooks/post.ts), so a name that resolves inside the
 * network is refused too.
 */
import { BlockList, isIP } from 'node:net';

const privateV4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  privateV4.addSubnet(net, bits, 'ipv4');
}
const privateV6 = new BlockList();
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  privateV6.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address literal is private, loopback, link-local, reserved or (IPv4-mapped) one of those. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return privateV4.check(mapped[1]!, 'ipv4');
  // URL normalizes [::ffff:127.0.0.1] to [::ffff:7f00:1].
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1]!, 16);
    const lo = parseInt(mappedHex[2]!, 16);
    return privateV4.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  if (isIP(bare) === 4) return privateV4.check(bare, 'ipv4');
  if (isIP(bare) === 6) return privateV6.check(bare, 'ipv6');
  return false;
}

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Why a URL may not be used as a webhook endpoint, or undefined when it may. */
export function urlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// URL';
  if (url.username || url.password) return 'must not contain credentials';
  if (allowPrivate) return undefined;
  if (url.protocol !== 'https:') return 'must be an https:// URL (http:// is not allowed by this deployment)';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isPrivateAddress(host) || INTERNAL_NAMES.test(host) || !host.includes('.') && isIP(host) === 0) {
    return 'must not point at a private, loopback or internal address';
  }
  return undefined;
}
