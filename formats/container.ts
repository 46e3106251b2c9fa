/**
 * Portolan artifact container: the one on-disk envelope for every build output (graphs, indexes).
 *
 * Layout (little-endian throughout; byte layout documented in docs/artifact-format.md):
 *   0   magic        8 bytes  "PRTLART\0"
 *   8   container    u32      CONTAINER_VERSION
 *   12  kind_len     u32      then kind (utf-8), padded to 8
 *   ..  fmt_version  u32      version of the payload format named by kind
 *   ..  section_cnt  u32
 *   ..  build_id     32 bytes utf-8, zero padded
 *   ..  sections     section_cnt x { name[24] utf-8 zero padded, offset u64, length u64, fnv1a64 u64 }
 *   ..  header_fnv   u64      FNV-1a 64 of every header byte before it
 *   payloads at their offsets, each aligned to 8 bytes.
 * FNV-1a 64 keeps the Rust reader dependency-free while catching truncation and corruption;
 * source inputs are verified with sha256 separately (data-build/manifest).
 */

export const CONTAINER_MAGIC = "PRTLART\0";
export const CONTAINER_VERSION = 1;
const NAME_BYTES = 24;
const BUILD_ID_BYTES = 32;
const SECTION_BYTES = NAME_BYTES + 24;

export interface Section {
  name: string;
  bytes: Uint8Array;
}

export interface Artifact {
  kind: string;
  formatVersion: number;
  buildId: string;
  sections: Map<string, Uint8Array>;
}

export class ArtifactError extends Error {}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = 0xffffffffffffffffn;

/** The bytes of a typed array (no copy), as sections take them. */
export const bytesOf = (a: ArrayBufferView): Uint8Array =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** FNV-1a 64 over bytes; 32-bit halves keep it fast enough for multi-MB sections. */
export function fnv1a64(bytes: Uint8Array): bigint {
  // Split the 64-bit state into hi/lo 32-bit words to avoid BigInt per byte.
  let hi = Number(FNV_OFFSET >> 32n) >>> 0;
  let lo = Number(FNV_OFFSET & 0xffffffffn) >>> 0;
  const pHi = Number(FNV_PRIME >> 32n) >>> 0; // 0x100
  const pLo = Number(FNV_PRIME & 0xffffffffn) >>> 0; // 0x1b3
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]!) >>> 0;
    // (hi:lo) * (pHi:pLo) mod 2^64; lo * pLo < 2^41 stays exact in a double.
    const lowProduct = lo * pLo;
    const carry = Math.floor(lowProduct / 0x100000000);
    const newHi = (Math.imul(hi, pLo) + Math.imul(lo, pHi) + carry) >>> 0;
    const newLo = lowProduct >>> 0;
    hi = newHi;
    lo = newLo;
  }
  return ((BigInt(hi) << 32n) | BigInt(lo)) & MASK64;
}

const pad8 = (n: number) => (n + 7) & ~7;

function writeName(view: Uint8Array, at: number, name: string, width: number): void {
  const encoded = new TextEncoder().encode(name);
  if (encoded.length > width) throw new ArtifactError(`name "${name}" longer than ${width} bytes`);
  view.set(encoded, at);
}

function readName(bytes: Uint8Array, at: number, width: number): string {
  let end = at;
  while (end < at + width && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(at, end));
}

export function encodeArtifact(
  kind: string,
  formatVersion: number,
  buildId: string,
  sections: Section[],
): Uint8Array {
  const kindBytes = new TextEncoder().encode(kind);
  const headerLen = pad8(
    8 + 4 + 4 + pad8(kindBytes.length) + 4 + 4 + BUILD_ID_BYTES + sections.length * SECTION_BYTES + 8,
  );
  let offset = headerLen;
  const offsets = sections.map((s) => {
    const at = offset;
    offset = pad8(offset + s.bytes.length);
    return at;
  });
  const out = new Uint8Array(offset);
  const dv = new DataView(out.buffer);
  let p = 0;
  writeName(out, p, CONTAINER_MAGIC, 8);
  p += 8;
  dv.setUint32(p, CONTAINER_VERSION, true);
  dv.setUint32(p + 4, kindBytes.length, true);
  p += 8;
  out.set(kindBytes, p);
  p += pad8(kindBytes.length);
  dv.setUint32(p, formatVersion, true);
  dv.setUint32(p + 4, sections.length, true);
  p += 8;
  writeName(out, p, buildId, BUILD_ID_BYTES);
  p += BUILD_ID_BYTES;
  sections.forEach((s, i) => {
    writeName(out, p, s.name, NAME_BYTES);
    dv.setBigUint64(p + NAME_BYTES, BigInt(offsets[i]!), true);
    dv.setBigUint64(p + NAME_BYTES + 8, BigInt(s.bytes.length), true);
    dv.setBigUint64(p + NAME_BYTES + 16, fnv1a64(s.bytes), true);
    out.set(s.bytes, offsets[i]!);
    p += SECTION_BYTES;
  });
  dv.setBigUint64(p, fnv1a64(out.subarray(0, p)), true);
  return out;
}

/**
 * Reads and verifies a container. `expect` pins kind and payload version so a stale build is refused
 * with a message telling the operator how to rebuild. `checksums: false` skips the section
 * checksums for a reader that hands the same bytes to one that verifies them (the WASM router's
 * loader): a multi-MB graph is then hashed once, not twice.
 */
export function decodeArtifact(
  bytes: Uint8Array,
  expect: { kind: string; formatVersion: number; path?: string; checksums?: boolean },
): Artifact {
  const where = expect.path ?? expect.kind;
  const rebuild = "run `npm run build` (or `bun run data-build/main.ts`) to rebuild the artifacts";
  const fail = (why: string): never => {
    throw new ArtifactError(`artifact ${where}: ${why}; ${rebuild}`);
  };
  if (bytes.length < 64 || readName(bytes, 0, 8) !== CONTAINER_MAGIC.replace("\0", ""))
    fail("not a Portolan artifact");
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 8;
  const container = dv.getUint32(p, true);
  if (container !== CONTAINER_VERSION)
    fail(`container version ${container}, this build reads ${CONTAINER_VERSION}`);
  const kindLen = dv.getUint32(p + 4, true);
  p += 8;
  if (p + pad8(kindLen) + 8 + BUILD_ID_BYTES > bytes.length) fail("truncated header");
  const kind = new TextDecoder().decode(bytes.subarray(p, p + kindLen));
  p += pad8(kindLen);
  const formatVersion = dv.getUint32(p, true);
  const count = dv.getUint32(p + 4, true);
  p += 8;
  const buildId = readName(bytes, p, BUILD_ID_BYTES);
  p += BUILD_ID_BYTES;
  if (kind !== expect.kind) fail(`holds "${kind}", expected "${expect.kind}"`);
  if (formatVersion !== expect.formatVersion) {
    fail(`format version ${formatVersion}, this build reads version ${expect.formatVersion}`);
  }
  if (p + count * SECTION_BYTES + 8 > bytes.length) fail("truncated section table");
  const sections = new Map<string, Uint8Array>();
  const table: Array<[string, number, number, bigint]> = [];
  for (let i = 0; i < count; i++) {
    table.push([
      readName(bytes, p, NAME_BYTES),
      Number(dv.getBigUint64(p + NAME_BYTES, true)),
      Number(dv.getBigUint64(p + NAME_BYTES + 8, true)),
      dv.getBigUint64(p + NAME_BYTES + 16, true),
    ]);
    p += SECTION_BYTES;
  }
  if (dv.getBigUint64(p, true) !== fnv1a64(bytes.subarray(0, p))) fail("header checksum mismatch");
  for (const [name, offset, length, sum] of table) {
    if (offset + length > bytes.length) fail(`section ${name} truncated`);
    const body = bytes.subarray(offset, offset + length);
    if (expect.checksums !== false && fnv1a64(body) !== sum) fail(`section ${name} checksum mismatch`);
    sections.set(name, body);
  }
  return { kind, formatVersion, buildId, sections };
}

/**
 * Rewrites the build id of a container in place, so an artifact skipped as unchanged joins the new
 * build instead of forming a mix the API would refuse. Returns false when the bytes are not a
 * container or already carry that id.
 */
export function restampBuildId(bytes: Uint8Array, buildId: string): boolean {
  if (bytes.length < 64 || readName(bytes, 0, 8) !== CONTAINER_MAGIC.replace("\0", "")) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kindLen = dv.getUint32(12, true);
  const idAt = 16 + pad8(kindLen) + 8;
  const fnvAt = idAt + BUILD_ID_BYTES + dv.getUint32(idAt - 4, true) * SECTION_BYTES;
  if (readName(bytes, idAt, BUILD_ID_BYTES) === buildId) return false;
  bytes.fill(0, idAt, idAt + BUILD_ID_BYTES);
  writeName(bytes, idAt, buildId, BUILD_ID_BYTES);
  dv.setBigUint64(fnvAt, fnv1a64(bytes.subarray(0, fnvAt)), true);
  return true;
}

/** A JSON artifact's build id: its first member (river-stretches.json writes it so). */
const JSON_BUILD_ID = /^\{"build_id":"([^"]*)"/;

/**
 * restampBuildId for a JSON artifact that names its build as its first member `build_id`: the
 * bytes with the new id (the rest unchanged), or null when they do not start so or carry it already.
 */
export function restampJsonBuildId(bytes: Uint8Array, buildId: string): Uint8Array<ArrayBuffer> | null {
  // The head first: most artifacts are binary containers of megabytes, not worth decoding whole.
  const head = JSON_BUILD_ID.exec(new TextDecoder().decode(bytes.subarray(0, 64)));
  if (!head || head[1] === buildId) return null;
  const text = new TextDecoder().decode(bytes);
  return new TextEncoder().encode(`{"build_id":${JSON.stringify(buildId)}${text.slice(head[0].length)}`);
}
