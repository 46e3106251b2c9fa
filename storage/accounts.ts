/**
 * Organisations (their plans), API keys and product entitlements as the accounts module writes
 * them (api/accounts/repo.ts keeps the rules and the key cache; tracking reads organisations
 * through `orgs`).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Statement } from "./dialect.ts";
import type { Org } from "./orgs.ts";
import type { Runner } from "./runner.ts";
import type { apiKeys, entitlements } from "./schema.ts";

export type KeyRow = typeof apiKeys.$inferSelect;
export type EntitlementRow = typeof entitlements.$inferSelect;
/** Plan columns an update may set (the rest of the organisation row is fixed at creation). */
export type OrgChanges = Partial<Omit<Org, "id" | "createdAt">>;
/** A key as listed to its owner: never its hash. */
export type KeyListing = Omit<KeyRow, "orgId" | "hash">;

export interface Accounts {
  listOrgs(): Promise<Org[]>;
  insertOrg(row: Org): Promise<void>;
  updateOrg(id: string, changes: OrgChanges): Promise<void>;
  /** Grants or renews; expiresAt null = no expiry. */
  upsertEntitlement(orgId: string, product: string, expiresAt: string | null): Promise<void>;
  deleteEntitlement(orgId: string, product: string): Promise<void>;
  entitlement(orgId: string, product: string): Promise<EntitlementRow | undefined>;
  insertKey(row: KeyRow): Promise<void>;
  keyById(id: string): Promise<KeyRow | undefined>;
  keyByHash(hash: string): Promise<KeyRow | undefined>;
  /** The key with its organisation, looked up by hash (the auth hot path). */
  principalByHash(hash: string): Promise<{ key: KeyRow; org: Org } | undefined>;
  setRevoked(id: string, at: string): Promise<void>;
  /**
   * Revokes one key of `orgId` for `product`, keeping an earlier revocation time; false when none
   * matched (another organisation's key, or another product's).
   */
  revokeOwn(orgId: string, product: string, keyId: string, at: string): Promise<boolean>;
  /** The organisation's keys: of one product, or of every product when `product` is null. */
  listKeys(orgId: string, product: string | null): Promise<KeyListing[]>;
}

export class SqlAccounts implements Accounts {
  // Hot-path queries are prepared once: building SQL per request cost ~80 µs.
  private readonly byHash: Statement<{ key: KeyRow; org: Org }[]>;
  private readonly entitlementRow: Statement<EntitlementRow[]>;

  constructor(private readonly x: Runner) {
    const { apiKeys, entitlements, orgs } = x.t;
    this.byHash = x.dialect.statement("principal_by_hash", x.root, (db) =>
      db
        .select({ key: apiKeys, org: orgs })
        .from(apiKeys)
        .innerJoin(orgs, eq(orgs.id, apiKeys.orgId))
        .where(eq(apiKeys.hash, sql.placeholder("hash"))),
    );
    this.entitlementRow = x.dialect.statement("entitlement", x.root, (db) =>
      db
        .select()
        .from(entitlements)
        .where(
          and(
            eq(entitlements.orgId, sql.placeholder("orgId")),
            eq(entitlements.product, sql.placeholder("product")),
          ),
        ),
    );
  }

  // Every write below also tells other processes to drop their key caches (accountsChanged), in
  // the same unit as the write: a committed change is never left unannounced.
  listOrgs(): Promise<Org[]> {
    const { orgs } = this.x.t;
    return this.x.run((db) => db.select().from(orgs));
  }
  insertOrg(row: Org): Promise<void> {
    const { orgs } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.insert(orgs).values(row);
      await this.x.dialect.accountsChanged(db);
    });
  }
  updateOrg(id: string, changes: OrgChanges): Promise<void> {
    const { orgs } = this.x.t;
    if (Object.keys(changes).length === 0) return Promise.resolve();
    return this.x.atomic(async (db) => {
      await db.update(orgs).set(changes).where(eq(orgs.id, id));
      await this.x.dialect.accountsChanged(db);
    });
  }
  upsertEntitlement(orgId: string, product: string, expiresAt: string | null): Promise<void> {
    const { entitlements } = this.x.t;
    return this.x.atomic(async (db) => {
      await db
        .insert(entitlements)
        .values({ orgId, product, expiresAt })
        .onConflictDoUpdate({ target: [entitlements.orgId, entitlements.product], set: { expiresAt } });
      await this.x.dialect.accountsChanged(db);
    });
  }
  deleteEntitlement(orgId: string, product: string): Promise<void> {
    const { entitlements } = this.x.t;
    return this.x.atomic(async (db) => {
      await db
        .delete(entitlements)
        .where(and(eq(entitlements.orgId, orgId), eq(entitlements.product, product)));
      await this.x.dialect.accountsChanged(db);
    });
  }
  entitlement(orgId: string, product: string): Promise<EntitlementRow | undefined> {
    return this.x.run(async (db) => (await this.entitlementRow.execute(db, { orgId, product }))[0]);
  }
  insertKey(row: KeyRow): Promise<void> {
    const { apiKeys } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.insert(apiKeys).values(row);
      await this.x.dialect.accountsChanged(db);
    });
  }
  keyById(id: string): Promise<KeyRow | undefined> {
    const { apiKeys } = this.x.t;
    return this.x.run(async (db) => (await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1))[0]);
  }
  keyByHash(hash: string): Promise<KeyRow | undefined> {
    const { apiKeys } = this.x.t;
    return this.x.run(
      async (db) => (await db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1))[0],
    );
  }
  principalByHash(hash: string): Promise<{ key: KeyRow; org: Org } | undefined> {
    return this.x.run(async (db) => (await this.byHash.execute(db, { hash }))[0]);
  }
  setRevoked(id: string, at: string): Promise<void> {
    const { apiKeys } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.update(apiKeys).set({ revokedAt: at }).where(eq(apiKeys.id, id));
      await this.x.dialect.accountsChanged(db);
    });
  }
  revokeOwn(orgId: string, product: string, keyId: string, at: string): Promise<boolean> {
    const { apiKeys } = this.x.t;
    return this.x.atomic(async (db) => {
      const matched =
        (
          await db
            .update(apiKeys)
            // Idempotent: a second revoke keeps the first revocation time.
            .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at})` })
            .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId), eq(apiKeys.product, product)))
            .returning({ id: apiKeys.id })
        ).length > 0;
      if (matched) await this.x.dialect.accountsChanged(db);
      return matched;
    });
  }
  listKeys(orgId: string, product: string | null): Promise<KeyListing[]> {
    const { apiKeys } = this.x.t;
    return this.x.run((db) =>
      db
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
        .where(and(eq(apiKeys.orgId, orgId), product === null ? undefined : eq(apiKeys.product, product))),
    );
  }
}
