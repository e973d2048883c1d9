/**
 * The addresses a callback may not reach (RFC 6890's special-purpose registries, as SEP-3415 and OpenAI's MCP Events
 * guide ask: no private, loopback or link-local destinations): loopback, private, shared (CGNAT), link-local,
 * unspecified, multicast, broadcast and reserved ranges, IPv4 and IPv6, and IPv4 embedded in an IPv6 address
 * (mapped, compatible, NAT64, 6to4) judged as the IPv4 address it carries.
 *
 * @module
 */

/** An IPv4 range: its first address's four bytes, its prefix length, and what it is. */
type Range4 = readonly [readonly [number, number, number, number], number, string];

/** The IPv4 ranges refused (RFC 6890 §2.2.2 and the registries it opened). */
const V4: readonly Range4[] = [
  [[0, 0, 0, 0], 8, "an unspecified address (0.0.0.0/8, RFC 6890)"],
  [[10, 0, 0, 0], 8, "a private address (RFC 1918)"],
  [[100, 64, 0, 0], 10, "a shared (CGNAT) address (RFC 6598)"],
  [[127, 0, 0, 0], 8, "a loopback address (RFC 1122)"],
  [[169, 254, 0, 0], 16, "a link-local address (RFC 3927)"],
  [[172, 16, 0, 0], 12, "a private address (RFC 1918)"],
  [[192, 0, 0, 0], 24, "an IETF protocol assignment (192.0.0.0/24, RFC 6890)"],
  [[192, 168, 0, 0], 16, "a private address (RFC 1918)"],
  [[198, 18, 0, 0], 15, "a benchmarking address (RFC 2544)"],
  [[224, 0, 0, 0], 4, "a multicast address (RFC 5771)"],
  [[240, 0, 0, 0], 4, "a reserved or broadcast address (RFC 1112, RFC 919)"],
];

/**
 * Why a callback may not reach an address, or `undefined` when it may.
 *
 * @param address An IPv4 or IPv6 address, as a resolver or a URL's host gives it (brackets and a zone allowed).
 * @returns What the address is, as a phrase ("a loopback address (RFC 1122)"); `"not an IP address"` for text
 *   that is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusedAddress } from "./address-ranges.ts";
 * assert.equal(refusedAddress("8.8.8.8"), undefined);
 * assert.match(refusedAddress("::ffff:127.0.0.1")!, /loopback/);
 * assert.match(refusedAddress("fd00::1")!, /unique local/);
 * ```
 */
export function refusedAddress(address: string): string | undefined {
  const text = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return refused4(v4);
  const v6 = parseIPv6(text);
  return v6 === undefined ? "not an IP address" : refused6(v6);
}

/**
 * Whether text is an IP address literal (IPv4 dotted quad, or IPv6, bracketed or not).
 *
 * @param host A URL's hostname.
 * @returns `true` for a literal.
 */
export function isAddressLiteral(host: string): boolean {
  const text = host.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  return parseIPv4(text) !== undefined || parseIPv6(text) !== undefined;
}

function refused4(bytes: readonly number[]): string | undefined {
  for (const [first, prefix, what] of V4) if (within(bytes, first, prefix)) return what;
  return undefined;
}

function refused6(b: readonly number[]): string | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 16)) return "an unspecified address (::, RFC 4291)";
  if (zeros(0, 15) && b[15] === 1) return "a loopback address (::1, RFC 4291)";
  // IPv4 inside IPv6: mapped ::ffff:0:0/96 and compatible ::/96 (RFC 4291 §2.5.5), NAT64 64:ff9b::/96 (RFC 6052),
  // 6to4 2002::/16 (RFC 3056): judged as the IPv4 address they reach.
  const mapped = zeros(0, 10) && b[10] === 0xff && b[11] === 0xff;
  const nat64 = b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12);
  if (mapped || zeros(0, 12) || nat64) return embedded(b.slice(12, 16));
  if (b[0] === 0x20 && b[1] === 0x02) return embedded(b.slice(2, 6));
  if ((b[0] & 0xfe) === 0xfc) return "a unique local address (fc00::/7, RFC 4193)";
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return "a link-local address (fe80::/10, RFC 4291)";
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return "a site-local address (fec0::/10, RFC 3879)";
  if (b[0] === 0xff) return "a multicast address (ff00::/8, RFC 4291)";
  if (b[0] === 0x01 && zeros(1, 8)) return "a discard-only address (100::/64, RFC 6666)";
  return undefined;
}

function embedded(v4: readonly number[]): string | undefined {
  const why = refused4(v4);
  return why === undefined ? undefined : `an IPv6 form of ${why}`;
}

function within(bytes: readonly number[], first: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== (first[bit / 8] & mask)) return false;
  }
  return true;
}

/** Four bytes of a dotted-quad IPv4 address (the form URLs normalise to), else `undefined`. */
function parseIPv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

/** Sixteen bytes of an IPv6 address (RFC 4291 §2.2, a trailing dotted quad included), else `undefined`. */
function parseIPv6(text: string): number[] | undefined {
  if (!text.includes(":") || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const split = (half: string) => half === "" ? [] : half.split(":");
  const head = split(halves[0]);
  const tail = halves.length === 2 ? split(halves[1]) : [];
  const rest = halves.length === 2 ? tail : head; // where a trailing dotted quad would be
  const last = rest.at(-1);
  let quad: number[] = [];
  if (last !== undefined && last.includes(".")) {
    const v4 = parseIPv4(last);
    if (v4 === undefined) return undefined;
    quad = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
    rest.pop();
  }
  const wordsOf = (list: string[]) => list.map((g) => /^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN);
  const front = wordsOf(head);
  const back = wordsOf(tail);
  const fill = 8 - front.length - back.length - quad.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const words = [...front, ...new Array<number>(fill).fill(0), ...back, ...quad];
  if (words.some((w) => Number.isNaN(w))) return undefined;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}
