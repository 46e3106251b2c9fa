/**
 * Time-ordered ids (UUID version 7, RFC 9562): the first 48 bits are the Unix time in milliseconds,
 * then a counter that keeps ids made in one millisecond by one process in order. Rows that list
 * "newest first" sort on (created_at, id), so ties within a millisecond keep their creation order
 * on any database, which a random id (or SQLite's rowid, absent on PostgreSQL) would not give.
 */
let lastMs = 0;
let counter = 0;

export function timeOrderedId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = 0;
  } else {
    // Same millisecond (or a clock stepping back): count on from the last id, never repeat.
    counter++;
    if (counter > 0xfff) {
      lastMs++;
      counter = 0;
    }
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ms = lastMs;
  for (let i = 0; i < 6; i++) bytes[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  bytes[6] = 0x70 | (counter >> 8); // version 7, counter's high nibble
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // RFC variant
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
