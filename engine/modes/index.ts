/** Every transport mode's profile (one file each beside this one), by mode and by request spelling. */
import { AIR } from "./air.ts";
import type { ModeProfile, TransportMode } from "./profile.ts";
import { RAIL } from "./rail.ts";
import { RIVER } from "./river.ts";
import { ROAD } from "./road.ts";
import { SEA } from "./sea.ts";

export const MODE_PROFILES: Readonly<Record<TransportMode, ModeProfile>> = { SEA, ROAD, RAIL, AIR, RIVER };

/** The spec's modes in its own order (the response's transport_modes lists the allowed ones so). */
export const MODES = Object.keys(MODE_PROFILES) as readonly TransportMode[];

const BY_ALIAS: ReadonlyMap<string, TransportMode> = new Map(
  MODES.flatMap((mode) => MODE_PROFILES[mode].aliases.map((alias) => [alias, mode] as const)),
);

/** Every name a request may give a mode by (upper case; any case is read). */
export const MODE_NAMES: readonly string[] = [...BY_ALIAS.keys()];

/** The mode a request names (any case, aliases included), or undefined. */
export const modeNamed = (text: string): TransportMode | undefined => BY_ALIAS.get(text.trim().toUpperCase());
