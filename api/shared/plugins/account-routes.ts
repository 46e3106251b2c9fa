/**
 * The account routes every product serves: GET /v1/account (the keyed no-op: the caller, its plan
 * and rate limit) and the management of the product's own keys.
 */
import { Elysia, type Static, t } from "elysia";
import type { KeyListing, Principal } from "../../accounts/repo.ts";
import { ApiError } from "../errors.ts";
import { uuidPath } from "../openapi/parameters.ts";
import { DateTime, Int, nullable, routeAnswers, strict, Uuid } from "../openapi/responses.ts";
import type { Platform } from "../platform.ts";
import { PRODUCT_IDS, type ProductDef, product } from "../products.ts";
import { caller } from "./access.ts";
import { windowLimit } from "./rate-limit.ts";

const KEY_FIELDS = {
  id: Uuid,
  product: t.Union(PRODUCT_IDS.map((id) => t.Literal(id))),
  hint: t.String(),
  label: nullable(t.String()),
  created_at: DateTime,
  expires_at: nullable(DateTime),
  revoked_at: nullable(DateTime),
};
const ApiKey = strict(KEY_FIELDS, { $id: "ApiKey", description: "An API key, never the key itself" });

const Account = strict(
  {
    org_id: t.String(),
    org_name: t.String(),
    plan: t.String(),
    paid: t.Boolean(),
    key_product: t.Union(PRODUCT_IDS.map((id) => t.Literal(id))),
    entitlement: t.Union([t.Literal("active"), t.Literal("expired"), t.Literal("none")]),
    rate_limit: strict({ limit: Int({ minimum: 1 }), window_seconds: t.Number({ minimum: 0 }) }),
  },
  { $id: "Account" },
);

/** A key as the routes show it: never the key itself, which only its creation answers. */
const keyView = ({ id, product: of, hint, label, createdAt, expiresAt, revokedAt }: KeyListing) => ({
  id,
  product: of,
  hint,
  label,
  created_at: createdAt,
  expires_at: expiresAt,
  revoked_at: revokedAt,
});

const NewKey = t.Object(
  {
    label: t.Optional(t.String({ maxLength: 100 })),
    expires_in_days: t.Optional(t.Integer({ minimum: 1, maximum: 3650 })),
  },
  { additionalProperties: false },
);

/** keyManager's refusal, answerable only where a key of another product is accepted. */
const keyRefusals = (def: ProductDef): [number, string][] =>
  def.alsoAccepts.length > 0
    ? [[403, "The key is another product's: only this product's keys manage them"]]
    : [];

/** Each route's OpenAPI detail; the product names the envelope and the keys. */
function routeDocs(def: ProductDef) {
  return {
    account: {
      ...routeAnswers(def, { 200: { description: "The calling account", data: Account } }),
      summary: "The calling account, its plan and rate limit",
    },
    keys: {
      ...routeAnswers(
        def,
        {
          200: { description: "The keys", data: strict({ items: t.Array(ApiKey) }) },
        },
        keyRefusals(def),
      ),
      summary: `The account's ${def.title} API keys (hints only, never the keys)`,
    },
    newKey: {
      ...routeAnswers(
        def,
        {
          201: {
            description: "The key, shown only here",
            data: strict({ ...KEY_FIELDS, key: t.String() }),
          },
        },
        keyRefusals(def),
      ),
      summary: "Issue another key for this product; the key is shown only in this response",
    },
    revoke: {
      ...routeAnswers(
        def,
        {
          200: { description: "Revoked", data: strict({ id: t.String(), revoked: t.Literal(true) }) },
        },
        keyRefusals(def),
      ),
      summary: `Revoke a ${def.title} key of this account`,
    },
  };
}

type Keyed = { principal: Principal };

/**
 * The organisation whose keys of this product the caller may manage. Only a key of this product
 * manages them: the family key another product accepts (an ocean key on the air host) and every
 * other product's keys stay out of reach; organisation-wide management is the operator's CLI.
 */
function keyManager(def: ProductDef, { org, keyProduct }: Principal): string {
  if (keyProduct !== def.id) {
    throw new ApiError(
      "forbidden",
      `A ${product(keyProduct).title} key cannot manage ${def.title} keys: use a ${def.title} key (${def.keyPrefix}) or \`portolan key\`.`,
    );
  }
  return org.id;
}

async function accountOf(def: ProductDef, { accounts, config }: Platform, { principal }: Keyed) {
  const { org, keyProduct } = principal;
  return {
    org_id: org.id,
    org_name: org.name,
    plan: org.plan,
    paid: org.paid,
    key_product: keyProduct,
    entitlement: await accounts.entitlement(org.id, def.id),
    rate_limit: { limit: windowLimit(org), window_seconds: config.rateWindowMs / 1000 },
  };
}

async function listKeys(def: ProductDef, { accounts }: Platform, { principal }: Keyed) {
  return { items: (await accounts.listKeys(keyManager(def, principal), def.id)).map(keyView) };
}

async function issueKey(
  def: ProductDef,
  platform: Platform,
  { principal, body, set }: Keyed & { body: Static<typeof NewKey>; set: { status?: unknown } },
) {
  const { accounts } = platform;
  const orgId = keyManager(def, principal);
  const expiresAt =
    body.expires_in_days === undefined
      ? null
      : new Date(platform.now() + body.expires_in_days * 86_400_000).toISOString();
  const created = await accounts.createKey(orgId, def.id, { label: body.label, expiresAt });
  set.status = 201;
  const view = keyView((await accounts.listKeys(orgId, def.id)).find((k) => k.id === created.id)!);
  return { ...view, key: created.key };
}

async function revokeKey(
  def: ProductDef,
  { accounts }: Platform,
  { principal, params }: Keyed & { params: { id: string } },
) {
  // Another account's or another product's key id answers 404, exactly like an id that never existed.
  if (!(await accounts.revokeOwnKey(keyManager(def, principal), def.id, params.id))) {
    throw new ApiError("notFound", `No key ${params.id} on this account.`);
  }
  return { id: params.id, revoked: true };
}

export function accountRoutes(def: ProductDef, platform: Platform) {
  const docs = routeDocs(def);
  // Each handler destructures what it reads: Elysia (sucrose) reads handlers' source, and one
  // handing on the whole context makes it parse the cookies and copy the headers and query.
  return new Elysia({ name: `portolan-account-${def.id}` })
    .use(caller)
    .get("/v1/account", ({ principal }) => accountOf(def, platform, { principal }), {
      keyed: true,
      detail: docs.account,
    })
    .get("/v1/account/keys", ({ principal }) => listKeys(def, platform, { principal }), {
      keyed: true,
      detail: docs.keys,
    })
    .post(
      "/v1/account/keys",
      ({ principal, body, set }) => issueKey(def, platform, { principal, body, set }),
      {
        keyed: true,
        body: NewKey,
        detail: docs.newKey,
      },
    )
    .delete(
      "/v1/account/keys/:id",
      ({ principal, params }) => revokeKey(def, platform, { principal, params }),
      {
        keyed: true,
        params: t.Object({ id: uuidPath("The key's id") }),
        detail: docs.revoke,
      },
    );
}
