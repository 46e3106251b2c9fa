/**
 * AIS payload armoring (ITU-R M.1371 / IEC 61162-1): each payload character carries 6 bits, and
 * text fields use the 64-character "6-bit ASCII" table. Pure TypeScript, shared by the decoder and
 * the encoder.
 */

/** 6-bit value of an armored payload character, or -1 when the character is not in the alphabet. */
export function unarmor(code: number): number {
  if (code >= 48 && code <= 87) return code - 48;
  if (code >= 96 && code <= 119) return code - 56;
  return -1;
}

export function armor(value: number): string {
  return String.fromCharCode(value < 40 ? value + 48 : value + 56);
}

/** The text alphabet: index = 6-bit value. '@' is padding and ends a string. */
const TEXT = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !\"#$%&'()*+,-./0123456789:;<=>?";

/**
 * Read-only view of a payload's bits. Holds one 6-bit value per byte so that fields of up to 30
 * bits (the widest AIS integer) are read by whole sextets rather than bit by bit.
 */
export class Bits {
  /** Number of meaningful bits (6 per character, less the sentence's fill bits). */
  length = 0;
  private sextets = new Uint8Array(256);

  /** Loads armored payload characters; false when a character is outside the alphabet. */
  load(payload: string, fillBits: number): boolean {
    const n = payload.length;
    if (this.sextets.length < n) this.sextets = new Uint8Array(n * 2);
    const s = this.sextets;
    for (let i = 0; i < n; i++) {
      const v = unarmor(payload.charCodeAt(i));
      if (v < 0) return false;
      s[i] = v;
    }
    this.length = n * 6 - fillBits;
    return true;
  }

  /** Unsigned integer of `len` (≤ 32) bits starting at bit `start`. Bits past the end read as 0. */
  uint(start: number, len: number): number {
    const s = this.sextets;
    let value = 0;
    let bit = start;
    const end = start + len;
    while (bit < end) {
      const idx = (bit / 6) | 0;
      const offset = bit - idx * 6;
      const take = Math.min(6 - offset, end - bit);
      const sextet = bit < this.length ? s[idx]! : 0;
      const chunk = (sextet >> (6 - offset - take)) & ((1 << take) - 1);
      value = value * (1 << take) + chunk;
      bit += take;
    }
    return value;
  }

  /** Two's-complement signed integer of `len` bits. */
  int(start: number, len: number): number {
    const v = this.uint(start, len);
    const half = 2 ** (len - 1);
    return v >= half ? v - 2 * half : v;
  }

  bool(start: number): boolean {
    return this.uint(start, 1) === 1;
  }

  /**
   * 6-bit text of up to `chars` characters, cut at the first '@' and at the end of the payload
   * (truncated messages keep what they carry), with trailing spaces trimmed.
   */
  text(start: number, chars: number): string {
    let out = "";
    for (let i = 0; i < chars; i++) {
      const at = start + i * 6;
      if (at + 6 > this.length) break;
      const v = this.uint(at, 6);
      if (v === 0) break;
      out += TEXT[v];
    }
    return out.trimEnd();
  }
}

/** Append-only bit buffer for building payloads. */
export class BitWriter {
  private bits: number[] = [];

  uint(value: number, len: number): this {
    for (let i = len - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
    return this;
  }

  int(value: number, len: number): this {
    return this.uint(value < 0 ? value + 2 ** len : value, len);
  }

  /** Upper-cased text padded with '@' to `chars`; characters outside the alphabet become spaces. */
  text(value: string, chars: number): this {
    const upper = value.toUpperCase();
    for (let i = 0; i < chars; i++) {
      const idx = i < upper.length ? TEXT.indexOf(upper[i]!) : 0;
      this.uint(idx <= 0 ? (i < upper.length ? 32 : 0) : idx, 6);
    }
    return this;
  }

  /** Armored payload and the fill bits added to reach a whole character. */
  armored(): { payload: string; fillBits: number } {
    const fillBits = (6 - (this.bits.length % 6)) % 6;
    const all = this.bits.concat(new Array<number>(fillBits).fill(0));
    let payload = "";
    for (let i = 0; i < all.length; i += 6) {
      let v = 0;
      for (let j = 0; j < 6; j++) v = v * 2 + all[i + j]!;
      payload += armor(v);
    }
    return { payload, fillBits };
  }
}
