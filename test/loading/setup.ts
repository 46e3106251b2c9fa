/**
 * What the load-plan tests share: a platform (SQLite, or PostgreSQL under PORTOLAN_TEST_DB), JSON
 * calls to the load-plan host with a tenant's key, and small loads the real planner plans fast.
 */

import type { Config } from "../../api/config.ts";
import { CRATE, LOAD, PALLET } from "../../scripts/openapi-examples/bodies.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

export { CRATE, PALLET };

export type Json = Record<string, unknown>;
export interface Reply {
  status: number;
  /** The JSON body ({} for an empty or non-JSON one: see text). */
  body: Json & { ok: boolean; data: Json & { items?: Json[] }; error?: Json };
  text: string;
  headers: Headers;
}

export async function loadingPlatform(overrides: Partial<Config> = {}): Promise<TestPlatform> {
  return makePlatform(overrides);
}

/** A tenant entitled to every product, limited generously (the fuzz test sends many calls). */
export async function loadingTenant(p: TestPlatform, name: string) {
  const t = await p.tenant({ paid: true, name });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000_000 });
  return { orgId: t.orgId, key: t.keys.loading };
}

export function apiOf(p: TestPlatform, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await p.call("loading", path, {
      method,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      ...bearer(key, { "content-type": "application/json" }),
    });
    const text = await res.text();
    const json = res.headers.get("content-type")?.startsWith("application/json");
    return { status: res.status, body: json ? JSON.parse(text) : {}, text, headers: res.headers };
  };
}

/** One greedy pass: these loads are easy, and the tests stay fast. */
export const FAST = { work_budget: 0 } as const;

/** Pallets and crates in a 20' box, cm and kg, in one greedy pass: the documents' example load. */
export const BODY = LOAD;

/** Twelve box types of `quantity` pieces each, cm and kg. */
export const boxTypes = (quantity: number) =>
  Array.from({ length: 12 }, (_, i) => ({
    id: `t${i}`,
    length: 40 + 7 * i,
    width: 30 + 5 * (i % 5),
    height: 25 + 9 * (i % 4),
    weight: 20 + i,
    quantity,
  }));

/** 1,800 pieces in nine 20' boxes at the default work budget: ~0.5 s of WASM. */
export const LARGE = {
  name: "Large consolidation",
  dimension_unit: "cm",
  equipment: ["20GP"],
  items: boxTypes(150),
};

/** Rows the organisation has in load_plans. */
export async function storedPlans(p: TestPlatform, orgId: string) {
  const t = p.storage.t.loadPlans;
  const rows = await p.storage.db.select().from(t);
  return rows.filter((r) => r.orgId === orgId);
}

/** What a plan summary (list items, event data) says of each unit, written from a full plan's units. */
export const unitSummaries = (units: Json[]) =>
  units.map((u) => ({
    number: u.number,
    equipment: u.equipment,
    pieces: u.pieces,
    volume_utilisation: u.volume_utilisation,
    weight_utilisation: u.weight_utilisation,
    svg_url: u.svg_url,
  }));
