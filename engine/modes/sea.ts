/** Sea: container ships between ports (engine/sea). */
import { type ModeProfile, WTW_PER_TTW } from "./profile.ts";

export const SEA: ModeProfile = {
  aliases: ["SEA"],
  costWeight: 1,
  intensity: {
    basis: "deep-sea container ship, industry average, dry container, 10 t cargo per TEU",
    wtw: 7.6,
    ttw: Math.round((7.6 / WTW_PER_TTW.vlsfo) * 100) / 100,
    source: "GLEC Framework (2019, July 2022 ed.) Module 2 Table 46: 76 g/TEU-km; TTW derived",
  },
  // The spec defaults alternatives to true for ROAD, RAIL, AIR and multimodal, not for sea.
  alternatives: false,
  handlingHours: 24,
};
