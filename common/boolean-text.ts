/**
 * A boolean as a query parameter or a batch row spells it: the spec types such parameters boolean
 * and leaves the spelling open, so every reader takes true or 1, false or 0, in any case; absent or
 * empty is the parameter's default. Each caller raises its own error for anything else, with
 * notBoolean's message.
 */
export function booleanText(raw: string | undefined, fallback: boolean): boolean | null {
  if (raw === undefined || raw === "") return fallback;
  const v = raw.toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  return null;
}

export const notBoolean = (name: string, raw: string | undefined): string =>
  `${name} must be true or false; got "${raw}".`;
