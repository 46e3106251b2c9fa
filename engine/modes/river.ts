/** River: inland container barges between river ports (engine/river). */
import type { ModeProfile } from "./profile.ts";

export const RIVER: ModeProfile = {
  aliases: ["RIVER", "INLAND", "INLAND_WATERWAY", "IWW", "BARGE"],
  costWeight: 1.8,
  intensity: {
    basis: "inland container vessel 110 m, diesel, primarily European operating data",
    // The table gives WTT 6.8 and TTW 22.5: WTW is their sum.
    wtw: 6.8 + 22.5,
    ttw: 22.5,
    source: "GLEC Framework v3.2 (2025) Module 2 Table 2 (inland waterways), container vessel 110 m",
  },
  // The spec defaults alternatives to true for ROAD, RAIL, AIR and multimodal: not for RIVER.
  alternatives: false,
  handlingHours: 18,
};
