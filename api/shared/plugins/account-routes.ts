/**
 * The account routes every product serves: GET /v1/account (the keyed no-op: the caller, its plan
 * and rate limit) and the management of the product's own keys.
 */
import { Elysia, t } from "elysia";
import type { KeyListing, Principal } from "../../accounts/repo.ts";
import { ApiError } from "../errors.ts";
import { AnyObject, routeAnswers } from "../openapi/responses.ts";
import type { Platform } from "../platform.ts";
import { type ProductDef, product } from "../products.ts";
import { caller } from "./access.ts";
import { windowLimit } from "./rate-limit.ts";

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

export function accountRoutes(def: ProductDef, platform: Platform) {
  const { accounts, config } = platform;

  /**
   * The organisation whose keys of this product the caller may manage. Only a key of this product
   * manages them: the family key another product accepts (an ocean key on the air host) and every
   * other product's keys stay out of reach; organisation-wide management is the operator's CLI.
   */
  const keyManager = ({ org, keyProduct }: Principal): string => {
    if (keyProduct !== def.id) {
      throw new ApiError(
        "forbidden",
        `A ${product(keyProduct).title} key cannot manage ${def.title} keys: use a ${def.title} key (${def.keyPrefix}) or \`portolan key\`.`,
      );
    }
    return org.id;
  };

  return new Elysia({ name: `portolan-account-${def.id}` })
    .use(caller)
    .get(
      "/v1/account",
      async ({ principal }) => {
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
      },
      { keyed: true, detail: { summary: "The calling account, its plan and rate limit" } },
    )
    .get(
      "/v1/account/keys",
      async ({ principal }) => ({
        items: (await accounts.listKeys(keyManager(principal), def.id)).map(keyView),
      }),
      {
        keyed: true,
        detail: { summary: `The account's ${def.title} API keys (hints only, never the keys)` },
      },
    )
    .post(
      "/v1/account/keys",
      async ({ principal, body, set }) => {
        const orgId = keyManager(principal);
        const expiresAt =
          body.expires_in_days === undefined
            ? null
            : new Date(platform.now() + body.expires_in_days * 86_400_000).toISOString();
        const created = await accounts.createKey(orgId, def.id, { label: body.label, expiresAt });
        set.status = 201;
        const view = keyView((await accounts.listKeys(orgId, def.id)).find((k) => k.id === created.id)!);
        return { ...view, key: created.key };
      },
      {
        keyed: true,
        body: NewKey,
        detail: {
          ...routeAnswers(def, { 201: { description: "The key, shown only here", data: AnyObject } }),
          summary: "Issue another key for this product; the key is shown only in this response",
        },
      },
    )
    .delete(
      "/v1/account/keys/:id",
      async ({ principal, params }) => {
        // Another account's or another product's key id answers 404, exactly like an id that never existed.
        if (!(await accounts.revokeOwnKey(keyManager(principal), def.id, params.id))) {
          throw new ApiError("notFound", `No key ${params.id} on this account.`);
        }
        return { id: params.id, revoked: true };
      },
      { keyed: true, detail: { summary: `Revoke a ${def.title} key of this account` } },
    );
}
