/**
 * NMEA 0183 layer of AIVDM/AIVDO: optional NMEA 4.10 tag block, sentence fields, checksums.
 * Parsing never throws: every failure is a reason the decoder counts.
 */

/** XOR of the character codes in `text[from, to)` (the NMEA checksum). */
export function checksum(text: string, from = 0, to = text.length): number {
  let x = 0;
  for (let i = from; i < to; i++) x ^= text.charCodeAt(i);
  return x;
}

export function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, "0");
}

/** Value of a two-hex-digit checksum at `text[at]`, or -1. */
function readHex2(text: string, at: number): number {
  if (at + 2 > text.length) return -1;
  const hi = hexDigit(text.charCodeAt(at));
  const lo = hexDigit(text.charCodeAt(at + 1));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** NMEA 4.10 tag block fields we use; the rest are kept verbatim in `raw`. */
export interface TagBlock {
  /** s: source / station id. */
  source: string | null;
  /** c: emission time, epoch milliseconds (seconds are scaled; values ≥ 1e12 are taken as ms). */
  time: number | null;
  /** g: sentence grouping: this sentence's number, the group size and the group id. */
  group: { sentence: number; size: number; id: number } | null;
  /** n: line count. */
  line: number | null;
  /** d: destination. */
  destination: string | null;
  /** t: (or IEC i:) text. */
  text: string | null;
  raw: Record<string, string>;
}

/** Parses the inside of `\...*hh\`; null when the checksum or a field is malformed. */
export function parseTagBlock(body: string): TagBlock | null {
  const star = body.lastIndexOf("*");
  if (star < 0 || readHex2(body, star + 1) !== checksum(body, 0, star) || star + 3 !== body.length)
    return null;
  const tag: TagBlock = {
    source: null,
    time: null,
    group: null,
    line: null,
    destination: null,
    text: null,
    raw: {},
  };
  if (star === 0) return tag;
  for (const field of body.slice(0, star).split(",")) {
    const colon = field.indexOf(":");
    if (colon < 1) return null;
    const key = field.slice(0, colon);
    const value = field.slice(colon + 1);
    tag.raw[key] = value;
    switch (key) {
      case "s":
        tag.source = value;
        break;
      case "c": {
        if (!/^\d{1,16}$/.test(value)) return null;
        const n = Number(value);
        tag.time = n >= 1e12 ? n : n * 1000;
        break;
      }
      case "g": {
        const m = /^(\d+)-(\d+)-(\d+)$/.exec(value);
        if (!m) return null;
        tag.group = { sentence: Number(m[1]), size: Number(m[2]), id: Number(m[3]) };
        break;
      }
      case "n":
        tag.line = /^\d+$/.test(value) ? Number(value) : null;
        break;
      case "d":
        tag.destination = value;
        break;
      case "t":
      case "i":
        tag.text = value;
        break;
    }
  }
  return tag;
}

/** One AIVDM/AIVDO sentence whose checksum verified. */
export interface Sentence {
  /** Two-letter talker (AI, AB, BS, SA, ...). */
  talker: string;
  /** True for VDO (own ship), false for VDM. */
  own: boolean;
  total: number;
  part: number;
  /** Sequential message id ("" when absent, as on single-part sentences). */
  seqId: string;
  channel: string;
  payload: string;
  fillBits: number;
}

export type SentenceError = "blank" | "not-ais" | "malformed" | "checksum";

/**
 * Parses `!ccVDM,total,part,seq,channel,payload,fill*hh` starting at `start`. Trailing data after
 * the checksum (USCG receiver fields) is ignored.
 */
export function parseSentence(line: string, start: number): Sentence | SentenceError {
  const lead = line.charCodeAt(start);
  if (lead !== 33 /* ! */ && lead !== 36 /* $ */) return "not-ais";
  if (line.charCodeAt(start + 3) !== 86 || line.charCodeAt(start + 4) !== 68) return "not-ais"; // "VD"
  const kind = line.charCodeAt(start + 5);
  if ((kind !== 77 && kind !== 79) || line.charCodeAt(start + 6) !== 44) return "not-ais"; // M/O then ','
  const star = line.indexOf("*", start + 7);
  if (star < 0) return "malformed";
  if (readHex2(line, star + 1) !== checksum(line, start + 1, star)) return "checksum";
  const f = line.slice(start + 7, star).split(",");
  if (f.length !== 6) return "malformed";
  const total = smallInt(f[0]!);
  const part = smallInt(f[1]!);
  const fillBits = smallInt(f[5]!);
  const payload = f[4]!;
  if (total < 1 || part < 1 || part > total || fillBits < 0 || fillBits > 5 || payload.length === 0) {
    return "malformed";
  }
  return {
    talker: line.slice(start + 1, start + 3),
    own: kind === 79,
    total,
    part,
    seqId: f[2]!,
    channel: f[3]!,
    payload,
    fillBits,
  };
}

/** Non-negative integer of at most 2 digits, else -1 (NMEA counts and fill bits are tiny). */
function smallInt(s: string): number {
  if (s.length === 0 || s.length > 2) return -1;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
