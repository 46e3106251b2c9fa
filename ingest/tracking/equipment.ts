/**
 * Equipment from an ISO 6346 size-type code (e.g. 45G1): container_size as carriers say it (40HC),
 * the type half (G1) and the family. Issue-5 enrichment refines this from the full code tables.
 */
const LENGTH: Record<string, string> = {
  "1": "10",
  "2": "20",
  "3": "30",
  "4": "40",
  L: "45",
  M: "48",
  P: "53",
};
const FAMILY: Record<string, { type: string; suffix: string }> = {
  G: { type: "Dry", suffix: "DV" },
  V: { type: "Ventilated", suffix: "VH" },
  R: { type: "Reefer", suffix: "RF" },
  H: { type: "Insulated", suffix: "IN" },
  U: { type: "Open Top", suffix: "OT" },
  P: { type: "Flat Rack", suffix: "FR" },
  T: { type: "Tank", suffix: "TK" },
  B: { type: "Bulk", suffix: "BU" },
  S: { type: "Named Cargo", suffix: "SN" },
};

export function equipmentFromIso(
  code: string | null,
): { size: string; isoTypeCode: string; type: string } | null {
  if (!code || !/^[0-9A-Z]{2}[A-Z][0-9A-Z]$/.test(code)) return null;
  const length = LENGTH[code[0]!];
  const family = FAMILY[code[2]!];
  if (!length || !family) return null;
  // Height code 5 (and E/F) is a high cube: 9'6".
  const highCube = ["5", "E", "F"].includes(code[1]!);
  const suffix =
    highCube && family.suffix === "DV" ? "HC" : highCube && family.suffix === "RF" ? "RH" : family.suffix;
  return { size: `${length}${suffix}`, isoTypeCode: code.slice(2), type: family.type };
}
