/** Rounds to a number of decimal places: the one rounding every rendered figure goes through. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
