/**
 * The request bodies of the example calls, one valid body per write operation ("METHOD /path" as
 * the document writes it), and the path values and queries of the reads that need some: the
 * examples are made with them, and the storage-down tests send them.
 */

/** The example load's pieces, cm and kg (the load-plan tests use them too). */
export const PALLET = {
  id: "pallet",
  length: 120,
  width: 80,
  height: 140,
  weight: 600,
  quantity: 6,
  orientations: "this_side_up",
} as const;
export const CRATE = { id: "crate", length: 60, width: 50, height: 40, weight: 40, quantity: 10 } as const;

/** Pallets and crates in a 20' box, planned in one greedy pass. */
export const LOAD = {
  name: "Shanghai consolidation",
  reference: "BK-1001",
  dimension_unit: "cm",
  equipment: ["20GP"],
  work_budget: 0,
  items: [PALLET, CRATE],
};

const QUOTE = { origin: "FRA", destination: "ORD", weight_kg: 120, volume_cm3: 480_000 };

export const WRITE_BODIES: Record<string, unknown> = {
  "POST /v1/account/keys": { label: "reporting", expires_in_days: 90 },
  "POST /v1/webhooks": { url: "https://hooks.example.com/portolan", description: "Operations desk" },
  "PATCH /v1/webhooks/{id}": { description: "Night shift" },
  "POST /v1/containers": { identifier: "MRKU0158387", identifier_type: "container_id" },
  "POST /v1/containers/{id}/notify-connector": {},
  "POST /v1/demurrage/terms": { carrier_code: "MAEU", free_days: 4 },
  "POST /v1/rates/quote": QUOTE,
  "POST /rates/quote": QUOTE,
  "POST /v1/awbs": { awb: "160-18156574" },
  "POST /v1/follows": { type: "lane", origin: "SGSIN", destination: "NLRTM" },
  "POST /v1/load-plans": LOAD,
  "PATCH /v1/load-plans/{id}": { reference: "BK-1002" },
  "POST /v1/distance/matrix": { sources: ["Hamburg"], destinations: ["Paris", "Milan"], modes: "ROAD,RAIL" },
};

/** The body the example call of `op` sends, none for an operation that takes none. */
export const bodyOf = (op: string): unknown =>
  Object.hasOwn(WRITE_BODIES, op) ? WRITE_BODIES[op] : undefined;

/** Path values and query of a read. */
export interface ReadArgs {
  at?: Record<string, string>;
  query?: string;
}

const LANE = "origin=SGSIN&destination=NLRTM";

export const READ_ARGS: Record<string, ReadArgs> = {
  "GET /v1/containers/lookup/{identifier}": { at: { identifier: "MAEU2569159" } },
  "GET /v2/events": { query: "limit=5" },
  "GET /public/v1/lookup/{number}": { at: { number: "MAEU200000005" } },
  "GET /public/v1/awb-prefixes/{reference}": { at: { reference: "020" } },
  "GET /v1/point-to-point": { query: LANE },
  "GET /public/v1/point-to-point": { query: LANE },
  "GET /v1/ports/{unlocode}/calls": { at: { unlocode: "NLRTM" } },
  "GET /public/v1/ports/{unlocode}/calls": { at: { unlocode: "NLRTM" } },
  "GET /v1/vessels/{imo}/schedule": { at: { imo: "9811000" } },
  "GET /public/v1/vessels/{imo}/schedule": { at: { imo: "9811000" } },
  "GET /v1/services/{code}/schedule": { at: { code: "AE1" }, query: "carrier=MAEU" },
  "GET /public/v1/services/{code}/schedule": { at: { code: "AE1" }, query: "carrier=MAEU" },
  "GET /v1/load-plans/{id}/units/{file}": { at: { file: "1.svg" } },
  "GET /v1/rates/search": { query: "origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL" },
  "GET /v1/distance/route": { query: "from=NLRTM&to=SGSIN" },
  "GET /v1/distance/multimodal": { query: "from=Rotterdam&to=Hamburg" },
  "GET /v1/distance/locations": { query: "q=Rotterdam" },
  "GET /v1/distance/matrix": { query: "sources=NLRTM|SGSIN&destinations=CNSHA|DEHAM" },
};

/** The path values and query the example call of `op` sends (none for a read that needs none). */
export const readArgsOf = (op: string): ReadArgs => (Object.hasOwn(READ_ARGS, op) ? READ_ARGS[op]! : {});
