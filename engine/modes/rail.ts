/** Rail: freight trains between railheads (engine/rail). */
import { type ModeProfile, WTW_PER_TTW } from "./profile.ts";

export const RAIL: ModeProfile = {
  aliases: ["RAIL"],
  costWeight: 3,
  intensity: {
    basis: "European freight train, diesel traction, average/mixed load",
    wtw: 28,
    ttw: Math.round((28 / WTW_PER_TTW.diesel) * 100) / 100,
    source: "GLEC Framework (2019, July 2022 ed.) Module 2 Table 38; TTW derived",
  },
  alternatives: true,
  handlingHours: 12,
};

export { RAIL_SPEED_KMH } from "../../formats/hierarchies.ts";
