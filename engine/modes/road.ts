/** Road: trucks (engine/road; the driving-time rule is road/truck.ts). */
import type { ModeProfile } from "./profile.ts";

export const ROAD: ModeProfile = {
  aliases: ["ROAD", "TRUCK"],
  costWeight: 6,
  intensity: {
    basis: "articulated truck <34 t GVW, average/mixed load, diesel, Europe",
    wtw: 116,
    ttw: 89,
    source: "GLEC Framework v3.0 (2023) Module 2 Table 8",
  },
  // The spec defaults alternatives to true for ROAD.
  alternatives: true,
  // A truck leg hands over at the other mode's terminal, whose handling counts there.
  handlingHours: 0,
};
