/**
 * Where a webhook may go. Targets that resolve to private, loopback, link-local (cloud metadata
 * 169.254.169.254 included), CGNAT, unique-local, multicast, reserved or documentation addresses, or
 * to IPv6 outside global unicast 2000::/3 (IPv4-embedding forms are judged by their IPv4), are
 * refused, at registration and again right before every attempt (DNS can change in between), unless
 * PORTOLAN_WEBHOOK_ALLOW_PRIVATE=1. Names are answered from PORTOLAN_WEBHOOK_RESOLVE first, then DNS.
 * A local listener's endpoint (`portolan webhooks listen`) is the one exception, the other way
 * round: it may reach loopback and nothing else (checkLoopback).
 */
import { lookup } from "node:dns/promises";
import { own } from "../../common/own.ts";
import type { WebhookConfig } from "./config.ts";

/** [network, prefix length] over the IPv4 space as 32-bit numbers. */
const V4_BLOCKED: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4ToInt(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

const V4_RANGES = V4_BLOCKED.map(([net, len]) => {
  const size = 2 ** (32 - len);
  const start = v4ToInt(net)!;
  return [start, start + size - 1] as const;
});

function blockedV4(n: number): boolean {
  return V4_RANGES.some(([lo, hi]) => n >= lo && n <= hi);
}

/** Eight 16-bit groups, or null when not an IPv6 literal (embedded dotted IPv4 allowed). */
function v6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    if (n === null) return null;
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

function blockedV6(g: number[]): boolean {
  const [a, b] = g as [number, number];
  const embeddedV4 = (hi: number, lo: number) => blockedV4(hi * 65536 + lo);
  const zeroUpTo = (k: number) => g.slice(0, k).every((x) => x === 0);
  // Forms that carry an IPv4 address the stack may end up contacting: judged by that address.
  if (zeroUpTo(5) && g[5] === 0xffff) return embeddedV4(g[6]!, g[7]!); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return embeddedV4(g[6]!, g[7]!); // IPv4-translated (RFC 2765)
  if (a === 0x64 && b === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0)
    return embeddedV4(g[6]!, g[7]!); // NAT64 well-known 64:ff9b::/96
  if (a === 0x2002) return embeddedV4(b, g[2]!); // 6to4
  // Every public IPv6 address is global unicast 2000::/3. Outside it sit ::, ::1, the deprecated
  // IPv4-compatible ::a.b.c.d, local-use NAT64 64:ff9b:1::/48 (translates to private networks),
  // discard-only 100::/64, SRv6 5f00::/16, unique local fc00::/7 (fd00:ec2::254 metadata
  // included), link-local fe80::/10, site-local fec0::/10 and multicast ff00::/8: all refused.
  if ((a & 0xe000) !== 0x2000) return true;
  // Teredo 2001::/32 (it embeds a NAT's client and server IPv4, private ones included) and the rest
  // of the IETF protocol assignments 2001::/23 (benchmarking, ORCHID, AMT, AS112): never a receiver.
  if (a === 0x2001 && (b & 0xfe00) === 0) return true;
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x3fff && b < 0x1000) return true; // documentation 3fff::/20 (RFC 9637)
  return false;
}

/** Whether an IP literal may not be contacted; non-literals answer null. */
export function isBlockedAddress(ip: string): boolean | null {
  const v4 = v4ToInt(ip);
  if (v4 !== null) return blockedV4(v4);
  const v6 = v6Groups(ip);
  return v6 ? blockedV6(v6) : null;
}

export type Resolve = (host: string) => Promise<string[]>;

/** PORTOLAN_WEBHOOK_RESOLVE entries first (read on every call, so a change applies at once), then DNS. */
export function resolverFor(cfg: Pick<WebhookConfig, "resolve">): Resolve {
  return async (host) => {
    const fixed = own(cfg.resolve, host.toLowerCase());
    if (fixed) return fixed;
    if (isBlockedAddress(host) !== null) return [host];
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  };
}

export class TargetRefused extends Error {}

/**
 * The addresses to connect to for `url`, every one of them allowed. Throws TargetRefused when any
 * answer is a blocked address (a name that mixes public and private answers is refused outright,
 * since the connection might take either) or when the name does not resolve.
 */
export async function checkTarget(url: URL, resolve: Resolve, allowPrivate: boolean): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new TargetRefused(`${host} does not resolve (${(err as { code?: string }).code ?? "DNS error"})`);
  }
  if (addresses.length === 0) throw new TargetRefused(`${host} does not resolve`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isBlockedAddress(a) !== false);
    if (bad) throw new TargetRefused(`${host} resolves to ${bad}, a private, loopback or reserved address`);
  }
  return addresses;
}

/** 127.0.0.0/8 and ::1: this machine. */
function isLoopback(ip: string): boolean {
  const v4 = v4ToInt(ip);
  if (v4 !== null) return v4 >>> 24 === 127;
  const v6 = v6Groups(ip);
  if (!v6) return false;
  if (v6.slice(0, 5).every((x) => x === 0) && v6[5] === 0xffff) return v6[6]! >>> 8 === 127;
  return v6.slice(0, 7).every((x) => x === 0) && v6[7] === 1;
}

/**
 * The addresses of a local listener's `url`, every one of them loopback: the receiver
 * `portolan webhooks listen` runs is on this machine, so its endpoint never reaches anything else.
 */
export async function checkLoopback(url: URL, resolve: Resolve): Promise<string[]> {
  const addresses = await checkTarget(url, resolve, true);
  const other = addresses.find((a) => !isLoopback(a));
  if (other) throw new TargetRefused(`${url.hostname} resolves to ${other}, not loopback (a local listener)`);
  return addresses;
}
