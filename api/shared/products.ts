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
  /** Path prefixes of the product's own routes: a request for one on another host is told where to go. */
  paths: string[];
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
    paths: [
      "/v1/containers",
      "/v1/portfolio",
      "/v1/demurrage",
      "/v2/events",
      "/public/v1/lookup",
      "/compat/vendor",
      "/track",
    ],
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
    paths: ["/v1/awbs", "/rates/quote", "/v1/rates/quote", "/public/v1/awb-prefixes"],
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
    paths: [
      "/v1/point-to-point",
      "/v1/ports",
      "/v1/vessels",
      "/v1/services",
      "/v1/reliability",
      "/v1/follows",
      "/public/v1/point-to-point",
      "/public/v1/ports",
      "/public/v1/vessels",
      "/public/v1/services",
      "/public/v1/reliability",
    ],
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
    paths: ["/v1/load-plans"],
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
    paths: ["/v1/rates/search", "/v1/rates/sheets"],
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
    paths: ["/v1/distance", "/map"],
  },
];

export const PRODUCT_IDS = PRODUCTS.map((p) => p.id);

export function product(id: ProductId): ProductDef {
  return PRODUCTS.find((p) => p.id === id)!;
}

/** The product whose routes `path` belongs to, if any. */
export function productServing(path: string): ProductDef | undefined {
  return PRODUCTS.find((p) => p.paths.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)));
}

export function isProductId(value: string): value is ProductId {
  return (PRODUCT_IDS as string[]).includes(value);
}

/** The contract date keyed ocean responses state in api_version. */
export const API_VERSION = "2026-11-21";
