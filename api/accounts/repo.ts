/**
 * Organisations, plans, API keys and entitlements. The only module that writes these tables; the
 * CLI and the auth plugin both go through it.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Org } from "../../storage/orgs.ts";
import { apiKeys, entitlements, orgs } from "../../storage/schema.ts";
import type { Db } from "../../storage/sqlite.ts";
import { constantTimeEqual, sha256Hex } from "../shared/crypto.ts";
import type { ProductId } from "../shared/products.ts";
import { mintKey } from "./keys.ts";

export type { Org } from "../../storage/orgs.ts";

export interface PlanSettings {
  plan?: string;
  paid?: boolean;
  shipmentQuota?: number | null;
  containerSlots?: number | null;
  paygSpendCapUsd?: number | null;
  paygUnitPriceUsd?: number | null;
  rateLimit?: number | null;
}

export interface Principal {
  org: Org;
  keyId: string;
  /** Product whose prefix the key carries. */
  keyProduct: ProductId;
}

export class AccountsRepo {
  // Hot-path queries are prepared once: building SQL per request cost ~80 µs.
  private readonly byHash;
  private readonly entitlementRow;
  /**
   * Principals by key hash. Emptied when another connection commits (data_version moves) and on
   * every write through this repo, so a revocation anywhere takes effect on the next request.
   */
  private readonly principals = new Map<string, Principal & { keyExpiresAt: string | null }>();
  private seenVersion = -1;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly dataVersion: () => number = () => 0,
  ) {
    this.byHash = db
      .select({ key: apiKeys, org: orgs })
      .from(apiKeys)
      .innerJoin(orgs, eq(orgs.id, apiKeys.orgId))
      .where(eq(apiKeys.hash, sql.placeholder("hash")))
      .prepare();
    this.entitlementRow = db
      .select()
      .from(entitlements)
      .where(
        and(
          eq(entitlements.orgId, sql.placeholder("orgId")),
          eq(entitlements.product, sql.placeholder("product")),
        ),
      )
      .prepare();
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  createOrg(name: string, plan: PlanSettings = {}): Org {
    const row = {
      id: crypto.randomUUID(),
      name,
      plan: plan.plan ?? "free",
      paid: plan.paid ?? false,
      shipmentQuota: plan.shipmentQuota ?? null,
      containerSlots: plan.containerSlots ?? null,
      paygSpendCapUsd: plan.paygSpendCapUsd ?? null,
      paygUnitPriceUsd: plan.paygUnitPriceUsd ?? null,
      rateLimit: plan.rateLimit ?? null,
      createdAt: this.iso(),
    };
    this.db.insert(orgs).values(row).run();
    this.principals.clear();
    return row;
  }

  getOrg(id: string): Org | undefined {
    return this.db.select().from(orgs).where(eq(orgs.id, id)).get();
  }

  setPlan(orgId: string, plan: PlanSettings): Org {
    const changes = Object.fromEntries(Object.entries(plan).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length > 0) this.db.update(orgs).set(changes).where(eq(orgs.id, orgId)).run();
    this.principals.clear();
    const org = this.getOrg(orgId);
    if (!org) throw new Error(`no organisation ${orgId}`);
    return org;
  }

  /** Grants (or renews) a product; expiresAt null = no expiry. */
  setEntitlement(orgId: string, productId: ProductId, expiresAt: string | null): void {
    this.db
      .insert(entitlements)
      .values({ orgId, product: productId, expiresAt })
      .onConflictDoUpdate({ target: [entitlements.orgId, entitlements.product], set: { expiresAt } })
      .run();
  }

  removeEntitlement(orgId: string, productId: ProductId): void {
    this.db
      .delete(entitlements)
      .where(and(eq(entitlements.orgId, orgId), eq(entitlements.product, productId)))
      .run();
  }

  /** "active", "expired" or "none" for the product at the current time. */
  entitlement(orgId: string, productId: ProductId): "active" | "expired" | "none" {
    const row = this.entitlementRow.get({ orgId, product: productId });
    if (!row) return "none";
    return row.expiresAt !== null && Date.parse(row.expiresAt) <= this.now() ? "expired" : "active";
  }

  async createKey(
    orgId: string,
    productId: ProductId,
    opts: { label?: string; expiresAt?: string | null } = {},
  ): Promise<{ id: string; key: string; hint: string }> {
    if (!this.getOrg(orgId)) throw new Error(`no organisation ${orgId}`);
    const minted = await mintKey(productId);
    const id = crypto.randomUUID();
    this.db
      .insert(apiKeys)
      .values({
        id,
        orgId,
        product: productId,
        hash: minted.hash,
        hint: minted.hint,
        label: opts.label ?? null,
        createdAt: this.iso(),
        expiresAt: opts.expiresAt ?? null,
        revokedAt: null,
      })
      .run();
    return { id, key: minted.key, hint: minted.hint };
  }

  /** Revokes by key id or by the key itself; returns false when nothing matched. */
  async revokeKey(idOrKey: string): Promise<boolean> {
    const hash = await sha256Hex(idOrKey);
    const row =
      this.db.select().from(apiKeys).where(eq(apiKeys.id, idOrKey)).get() ??
      this.db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).get();
    if (!row) return false;
    this.db.update(apiKeys).set({ revokedAt: this.iso() }).where(eq(apiKeys.id, row.id)).run();
    this.principals.clear();
    return true;
  }

  /** Revokes one key of `orgId`; false when the id is unknown or belongs to another organisation. */
  revokeOwnKey(orgId: string, keyId: string): boolean {
    const revoked = this.db
      .update(apiKeys)
      // Idempotent: a second revoke keeps the first revocation time.
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${this.iso()})` })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId)))
      .returning({ id: apiKeys.id })
      .all();
    this.principals.clear();
    return revoked.length > 0;
  }

  listKeys(orgId: string) {
    return this.db
      .select({
        id: apiKeys.id,
        product: apiKeys.product,
        hint: apiKeys.hint,
        label: apiKeys.label,
        createdAt: apiKeys.createdAt,
        expiresAt: apiKeys.expiresAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.orgId, orgId))
      .all();
  }

  /**
   * The principal behind a presented key, or null when it is unknown, revoked or expired. The hash
   * is looked up by index, then compared in constant time so the final decision leaks nothing.
   */
  async authenticate(key: string): Promise<Principal | null> {
    const hash = await sha256Hex(key);
    const version = this.dataVersion();
    if (version !== this.seenVersion || this.principals.size > 10_000) {
      this.principals.clear();
      this.seenVersion = version;
    }
    let principal = this.principals.get(hash);
    if (!principal) {
      const row = this.byHash.get({ hash });
      if (!row || !constantTimeEqual(row.key.hash, hash) || row.key.revokedAt !== null) return null;
      principal = {
        org: row.org,
        keyId: row.key.id,
        keyProduct: row.key.product as ProductId,
        keyExpiresAt: row.key.expiresAt,
      };
      this.principals.set(hash, principal);
    }
    if (principal.keyExpiresAt !== null && Date.parse(principal.keyExpiresAt) <= this.now()) return null;
    return { org: principal.org, keyId: principal.keyId, keyProduct: principal.keyProduct };
  }
}
