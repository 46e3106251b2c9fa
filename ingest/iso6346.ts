/**
 * ISO 6346 container numbers: 3-letter owner code, category (U freight, J detachable equipment,
 * Z trailer/chassis), 6-digit serial, check digit.
 */

const SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/;
const LOOSE = /^[A-Z]{4}\d{6,7}$/;

/** Letter values skip multiples of 11 (11, 22, 33), as the standard prescribes. */
function charValue(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  let v = 10 + (code - 65);
  v += Math.floor((v - 1) / 10);
  return v;
}

/** Check digit of the first ten characters (owner code, category, serial). */
export function checkDigit(ownerAndSerial: string): number {
  const s = ownerAndSerial.toUpperCase();
  if (!/^[A-Z]{4}\d{6}$/.test(s)) throw new Error(`not an owner code + serial: "${ownerAndSerial}"`);
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += charValue(s[i]!) * 2 ** i;
  return (sum % 11) % 10;
}

/** Trimmed, upper-cased, inner spaces and dashes removed ("MSCU 123456-6" -> "MSCU1234566"). */
export function normalizeContainerNumber(s: string): string {
  return s.trim().toUpperCase().replace(/[\s-]/g, "");
}

export type ContainerValidation =
  | { ok: true; number: string }
  | { ok: false; reason: "format" | "category" | "check_digit"; message: string; suggestion?: string };

export function validateContainerNumber(input: string): ContainerValidation {
  const s = normalizeContainerNumber(input);
  if (!/^[A-Z]{4}\d{7}$/.test(s)) {
    return {
      ok: false,
      reason: "format",
      message: "a container number is 4 letters and 7 digits (e.g. CSQU3054383)",
    };
  }
  if (!SHAPE.test(s)) {
    return { ok: false, reason: "category", message: "the 4th letter must be U, J or Z" };
  }
  const expected = checkDigit(s.slice(0, 10));
  if (Number(s[10]) !== expected) {
    const suggestion = `${s.slice(0, 10)}${expected}`;
    return {
      ok: false,
      reason: "check_digit",
      message: `check digit should be ${expected}: did you mean ${suggestion}?`,
      suggestion,
    };
  }
  return { ok: true, number: s };
}

/** Shaped like a container number (check digit not verified; 10 or 11 characters). */
export function looksLikeContainer(s: string): boolean {
  return LOOSE.test(normalizeContainerNumber(s));
}

/** A full number from owner code + category + serial, with its check digit. */
export function withCheckDigit(ownerAndSerial: string): string {
  return `${ownerAndSerial.toUpperCase()}${checkDigit(ownerAndSerial)}`;
}
