/**
 * The request bodies of the example calls, one valid body per write operation ("METHOD /path" as
 * the document writes it): the examples are made with them, and the storage-down test sends them.
 */

/** Pallets and crates in a 20' box, planned in one greedy pass. */
export const LOAD = {
  name: "Shanghai consolidation",
  reference: "BK-1001",
  dimension_unit: "cm",
  equipment: ["20GP"],
  work_budget: 0,
  items: [
    {
      id: "pallet",
      length: 120,
      width: 80,
      height: 140,
      weight: 600,
      quantity: 6,
      orientations: "this_side_up",
    },
    { id: "crate", length: 60, width: 50, height: 40, weight: 40, quantity: 10 },
  ],
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
