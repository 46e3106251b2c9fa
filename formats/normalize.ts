/**
 * Search-key normalization shared by the build (keys written into the artifact) and the runtime
 * (queries): both sides must fold identically or prefix search silently misses.
 */

// Letters NFKD does not decompose into base + combining mark.
const SPECIAL: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  ı: "i",
  þ: "th",
  ħ: "h",
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL).join("")}]`, "g");

/** Lower-case, strip diacritics, turn punctuation into single spaces. "Pôrto-Alegre" -> "porto alegre". */
export function normalize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
