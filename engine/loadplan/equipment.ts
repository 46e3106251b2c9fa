/**
 * The equipment catalogue: inside dimensions, door opening and payload in mm and kg.
 *
 * Sources: typical values of ISO 668 / ISO 1496 boxes as printed on carriers' container
 * specification sheets (Hapag-Lloyd, Maersk, MSC "container specifications" pages, steel dry
 * boxes and integrated reefers); a given box differs by a few mm and by its tare, so the plate on
 * the door wins. Payload = max gross (30,480 kg; 32,500 kg for 45'; 34,000 kg for the 40' reefer)
 * minus a typical tare. Reefer inside dimensions are the usable space in front of the evaporator,
 * floor to the top of the T-floor. The 13.6 m trailer is the EU standard curtainsider / box
 * trailer (13.6 x 2.48 x 2.7 m inside, about 24 t payload at 40 t gross combination weight);
 * its door is the rear portal (side loading through the curtain is not modelled).
 */

export const EQUIPMENT_CODES = ["20GP", "40GP", "40HC", "45HC", "20RF", "40RH", "TRAILER_13_6"] as const;
export type EquipmentCode = (typeof EQUIPMENT_CODES)[number];

export interface Equipment {
  code: EquipmentCode;
  name: string;
  /** Inside length, width, height in mm. */
  inside: { length: number; width: number; height: number };
  /** Door opening width and height in mm: a box passes it as placed. */
  door: { width: number; height: number };
  payloadKg: number;
  reefer: boolean;
}

const eq = (
  code: EquipmentCode,
  name: string,
  [length, width, height]: [number, number, number],
  [doorWidth, doorHeight]: [number, number],
  payloadKg: number,
  reefer = false,
): Equipment => ({
  code,
  name,
  inside: { length, width, height },
  door: { width: doorWidth, height: doorHeight },
  payloadKg,
  reefer,
});

export const EQUIPMENT: Readonly<Record<EquipmentCode, Equipment>> = {
  "20GP": eq("20GP", "20' dry (general purpose)", [5898, 2352, 2393], [2340, 2280], 28_200),
  "40GP": eq("40GP", "40' dry (general purpose)", [12_032, 2352, 2393], [2340, 2280], 26_700),
  "40HC": eq("40HC", "40' high cube", [12_032, 2352, 2698], [2340, 2585], 26_500),
  "45HC": eq("45HC", "45' high cube", [13_556, 2352, 2698], [2340, 2585], 27_700),
  "20RF": eq("20RF", "20' reefer", [5444, 2294, 2276], [2290, 2264], 27_400, true),
  "40RH": eq("40RH", "40' reefer high cube", [11_583, 2294, 2550], [2290, 2550], 29_500, true),
  TRAILER_13_6: eq("TRAILER_13_6", "13.6 m semi-trailer", [13_600, 2480, 2700], [2480, 2650], 24_000),
};
