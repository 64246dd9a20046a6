/**
 * Webhook URL safety: deployed, only `https` URLs whose host resolves to public addresses are accepted,
 * at create time and again when connecting (the address actually dialled is checked, so DNS rebinding
 * cannot reach a private one). In local mode (`LOCAL_MODE=true`) plain `http` is allowed to loopback only.
 * Refused ranges follow the IANA special-purpose registries (RFC 6890, RFC 6598, RFC 4193, RFC 4291):
 * private, loopback, link-local (incl. 169.254.169.254 instance metadata), CGNAT, multicast, reserved,
 * documentation and benchmarking ranges.
 */
import type { BlockList } from 'node:net';
import { config } from '#ports/config';

/**
 * `node:net`, loaded on first use rather than at module load: the webhooks API group needs it only to check a
 * subscription's URL (create, update), and its init is within 0.1× of issue 24's budget.
 */
const net = () => process.getBuiltinModule('node:net');

/** The refused ranges and loopback, built on first use. */
let ranges: { blocked: BlockList; loopback: BlockList } | undefined;
function rangesOf(): { blocked: BlockList; loopback: BlockList } {
  if (ranges) return ranges;
  const blocked = new (net().BlockList)();
  for (const [addr, prefix] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
    ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) blocked.addSubnet(addr, prefix, 'ipv4');
  for (const [addr, prefix] of [
    ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
  ] as const) blocked.addSubnet(addr, prefix, 'ipv6');
  const loopback = new (net().BlockList)();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  return (ranges = { blocked, loopback });
}

/** Thrown for a URL or address a webhook may not target; `message` is safe to show the caller. */
export class UnsafeWebhookUrl extends Error {}

export const isLocalMode = () => config.localMode;

/** True for an address a deployed service may POST to. IPv4-mapped IPv6 is judged as its IPv4. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = net().isIP(address);
  if (!family) return false;
  return !rangesOf().blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export function isLoopbackAddress(address: string): boolean {
  const family = net().isIP(address);
  return family !== 0 && rangesOf().loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * May an address be dialled for a URL of this protocol? Deployed: public only. Local: loopback as well,
 * and `http` only to loopback.
 */
export function assertAddressAllowed(address: string, protocol: string, local = isLocalMode()): void {
  if (local && isLoopbackAddress(address)) return;
  if (protocol === 'http:') throw new UnsafeWebhookUrl('plain http is allowed only to loopback in local mode');
  if (!isPublicAddress(address)) throw new UnsafeWebhookUrl('the URL resolves to a non-public address');
}

/**
 * Checks a subscription URL: scheme, no credentials, and every address its host resolves to.
 * @throws UnsafeWebhookUrl with a message for the 422 `fields.url`
 */
export async function assertSafeWebhookUrl(raw: string, local = isLocalMode()): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrl('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) throw new UnsafeWebhookUrl(local ? 'must use https (or http to loopback in local mode)' : 'must use https');
  if (url.username || url.password) throw new UnsafeWebhookUrl('must not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    const { lookup } = await import('node:dns/promises');
    addresses = net().isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new UnsafeWebhookUrl('host does not resolve');
  }
  for (const address of addresses) assertAddressAllowed(address, url.protocol, local);
  return url;
}
