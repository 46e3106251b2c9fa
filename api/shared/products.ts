/**
 * The six products: identity, default port, key prefixes and envelope family. One table so the
 * CLI, auth, envelopes and docs never disagree.
 */

export type ProductId = "ocean" | "air" | "schedules" | "loading" | "rates" | "distance";

/** ok: {ok, data} bodies with upper-case codes; data: {data} bodies with lower-case codes. */
export type EnvelopeFamily = "ok" | "data";

export interface ProductDef {
  id: ProductId;
  title: string;
  defaultPort: number;
  /** Prefix of keys this product issues (followed by "_"). */
  keyPrefix: string;
  /** Products whose keys are also accepted here (air-cargo accepts the ocean family key). */
  alsoAccepts: ProductId[];
  /** Whether x-api-key is accepted besides Authorization: Bearer. */
  xApiKey: boolean;
  family: EnvelopeFamily;
  /** Ocean success bodies also carry api_version. */
  versioned: boolean;
}

export const PRODUCTS: readonly ProductDef[] = [
  {
    id: "ocean",
    title: "Ocean tracking",
    defaultPort: 8080,
    keyPrefix: "oc",
    alsoAccepts: [],
    xApiKey: false,
    family: "ok",
    versioned: true,
  },
  {
    id: "air",
    title: "Air cargo",
    defaultPort: 8081,
    keyPrefix: "ac",
    alsoAccepts: ["ocean"],
    xApiKey: false,
    family: "data",
    versioned: false,
  },
  {
    id: "schedules",
    title: "Sailing schedules",
    defaultPort: 8082,
    keyPrefix: "ss",
    alsoAccepts: [],
    xApiKey: true,
    family: "ok",
    versioned: false,
  },
  {
    id: "loading",
    title: "Load plans",
    defaultPort: 8083,
    keyPrefix: "lp",
    alsoAccepts: [],
    xApiKey: true,
    family: "ok",
    versioned: false,
  },
  {
    id: "rates",
    title: "Rates",
    defaultPort: 8084,
    keyPrefix: "rt",
    alsoAccepts: [],
    xApiKey: true,
    family: "data",
    versioned: false,
  },
  {
    id: "distance",
    title: "Distance and multimodal routing",
    defaultPort: 8085,
    keyPrefix: "ds",
    alsoAccepts: [],
    xApiKey: false,
    family: "data",
    versioned: false,
  },
];

export const PRODUCT_IDS = PRODUCTS.map((p) => p.id);

export function product(id: ProductId): ProductDef {
  return PRODUCTS.find((p) => p.id === id)!;
}

export function isProductId(value: string): value is ProductId {
  return (PRODUCT_IDS as string[]).includes(value);
}

/** The contract date keyed ocean responses state in api_version. */
export const API_VERSION = "2026-11-21";
