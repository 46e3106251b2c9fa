/**
 * The spec's route chain identities, for chains from the engine and from the API alike (road,
 * rail, air, river): sections add up to the summary, hours = moving + handling, each leg starts
 * where the one before it ended; emissions (docs/emissions.md) add up likewise.
 */
import { expect } from "bun:test";
import { round } from "../../common/round.ts";

export type Distance = { km: number; nm: number; meters: number };
export type Duration = { hours: number; days: number; seconds: number };
export type Emissions = {
  co2e_kg: number | null;
  co2e_ttw_kg: number | null;
  cargo_tonnes: number;
  method: string;
};
export type Summary = {
  distance: Distance;
  duration: Duration;
  moving_hours: number;
  handling_hours: number;
  speed_kmh: number;
  cost_index: number;
  emissions: Emissions;
};

/** What every chain has, whatever its modes. */
export interface ChainShape {
  transport_modes: string[];
  summary: Summary;
  sections: Array<{
    transport_mode: string;
    from: unknown;
    to: unknown;
    distance: Distance;
    duration: Duration;
    /** Optional in the type only (callers' own section types predate it); checkChain requires it. */
    emissions?: Emissions;
  }>;
  transfers: Array<{ hours: number }>;
}

/** Total of shown kg (whole grams), unknown when any part is; transfers emit nothing. */
const emissionsSum = (parts: Array<number | null>) =>
  parts.some((p) => p === null)
    ? null
    : round(
        parts.reduce<number>((a, p) => a + p!, 0),
        3,
      );

const WEIGHT: Record<string, number> = { SEA: 1, RIVER: 1.8, RAIL: 3, ROAD: 6, AIR: 40 };

/** The spec's identities: sections add up to the summary, hours = moving + handling, legs join. */
export function checkChain(c: ChainShape): void {
  const sum = (f: (s: ChainShape["sections"][number]) => number) => c.sections.reduce((a, s) => a + f(s), 0);
  expect(c.summary.distance.meters).toBe(sum((s) => s.distance.meters));
  // Shown hours are whole seconds rounded to 2 decimals: the identities hold on what is shown.
  expect(c.summary.moving_hours).toBe(round(sum((s) => s.duration.seconds) / 3600, 2));
  expect(c.summary.handling_hours).toBeCloseTo(
    c.transfers.reduce((a, t) => a + t.hours, 0),
    2,
  );
  expect(c.summary.duration.hours).toBeCloseTo(c.summary.moving_hours + c.summary.handling_hours, 2);
  expect(c.summary.duration.seconds).toBe(
    sum((s) => s.duration.seconds) + c.transfers.reduce((a, t) => a + Math.round(t.hours * 3600), 0),
  );
  expect(c.summary.cost_index).toBeCloseTo(
    c.sections.reduce((a, s) => a + s.distance.meters * WEIGHT[s.transport_mode]!, 0) / 1e6,
    2,
  );
  const e = c.summary.emissions;
  const legs = c.sections.map((s) => {
    expect(s.emissions).toBeDefined();
    return s.emissions!;
  });
  expect(e.co2e_kg).toBe(emissionsSum(legs.map((s) => s.co2e_kg)));
  expect(e.co2e_ttw_kg).toBe(emissionsSum(legs.map((s) => s.co2e_ttw_kg)));
  for (const s of legs) {
    expect(s.cargo_tonnes).toBe(e.cargo_tonnes);
    expect(s.method).toBe(e.method);
    // TTW is part of WTW: never more, both known or both unknown.
    if (s.co2e_kg === null) expect(s.co2e_ttw_kg).toBeNull();
    else expect(s.co2e_ttw_kg!).toBeLessThanOrEqual(s.co2e_kg);
  }
  const modes = c.sections.map((s) => s.transport_mode);
  expect(c.transport_modes).toEqual(modes.filter((m, i) => m !== modes[i - 1]));
  for (let i = 1; i < c.sections.length; i++) expect(c.sections[i]!.from).toEqual(c.sections[i - 1]!.to);
}
