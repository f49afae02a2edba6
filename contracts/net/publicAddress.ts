import { BlockList, isIP } from 'node:net';

/**
 * Addresses that are not publicly routable: loopback, private, link-local, CGNAT, documentation, benchmarking,
 * multicast and reserved ranges. Outbound requests to hosts chosen by users (webhook receivers, client metadata
 * documents) must not reach them unless the operator allows it (WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
 * OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES). `BlockList` is pure computation: no I/O happens here.
 */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether `address` (an IP literal, without brackets) is publicly routable. Anything that is not an IP is not. */
export function isPublicAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged by its IPv4 address; other mapped forms are refused.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (!mapped && /^::ffff:/i.test(address)) return false;
  const plain = mapped ? (mapped[1] as string) : address;
  const family = isIP(plain);
  if (family === 0) return false;
  return !NON_PUBLIC.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of `url` when it is an IP literal (brackets removed), else null: such a host is connected to without a lookup. */
export function addressLiteralOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 ? host : null;
}
