/** Air: freighters between large cargo airports (engine/air). */
import { type ModeProfile, WTW_PER_TTW } from "./profile.ts";

export const AIR: ModeProfile = {
  aliases: ["AIR", "FLIGHT"],
  costWeight: 40,
  intensity: {
    basis: "air freight >1500 km, freighter, IATA RP1678",
    wtw: Math.round(498 * WTW_PER_TTW.jet),
    ttw: 498,
    source: "GLEC Framework v3.0 (2023) Module 2 Table 1; WTW derived",
  },
  alternatives: true,
  handlingHours: 12,
};

/** Spec, Limits: a freighter's cruise speed. */
export const AIR_CRUISE_KMH = 800;
/** Spec: plus 45 minutes per flight (taxi, climb, descent). */
export const AIR_EXTRA_HOURS = 0.75;
