/**
 * Organisations (their plans), API keys and product entitlements as the accounts module writes
 * them (api/accounts/repo.ts keeps the rules and the key cache; tracking reads organisations
 * through `orgs`).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Org } from "./orgs.ts";
import type { Runner } from "./runner.ts";
import { apiKeys, entitlements, orgs } from "./schema.ts";

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
  /** Revokes one key of `orgId`, keeping an earlier revocation time; false when none matched. */
  revokeOwn(orgId: string, keyId: string, at: string): Promise<boolean>;
  listKeys(orgId: string): Promise<KeyListing[]>;
}

export class SqliteAccounts implements Accounts {
  // Hot-path queries are prepared once: building SQL per request cost ~80 µs.
  private readonly byHash;
  private readonly entitlementRow;

  constructor(
    db: Db,
    private readonly x: Runner,
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

  listOrgs(): Promise<Org[]> {
    return this.x.run((db) => db.select().from(orgs).all());
  }
  insertOrg(row: Org): Promise<void> {
    return this.x.run((db) => {
      db.insert(orgs).values(row).run();
    });
  }
  updateOrg(id: string, changes: OrgChanges): Promise<void> {
    return this.x.run((db) => {
      if (Object.keys(changes).length > 0) db.update(orgs).set(changes).where(eq(orgs.id, id)).run();
    });
  }
  upsertEntitlement(orgId: string, product: string, expiresAt: string | null): Promise<void> {
    return this.x.run((db) => {
      db.insert(entitlements)
        .values({ orgId, product, expiresAt })
        .onConflictDoUpdate({ target: [entitlements.orgId, entitlements.product], set: { expiresAt } })
        .run();
    });
  }
  deleteEntitlement(orgId: string, product: string): Promise<void> {
    return this.x.run((db) => {
      db.delete(entitlements)
        .where(and(eq(entitlements.orgId, orgId), eq(entitlements.product, product)))
        .run();
    });
  }
  entitlement(orgId: string, product: string): Promise<EntitlementRow | undefined> {
    return this.x.run(() => this.entitlementRow.get({ orgId, product }));
  }
  insertKey(row: KeyRow): Promise<void> {
    return this.x.run((db) => {
      db.insert(apiKeys).values(row).run();
    });
  }
  keyById(id: string): Promise<KeyRow | undefined> {
    return this.x.run((db) => db.select().from(apiKeys).where(eq(apiKeys.id, id)).get());
  }
  keyByHash(hash: string): Promise<KeyRow | undefined> {
    return this.x.run((db) => db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).get());
  }
  principalByHash(hash: string): Promise<{ key: KeyRow; org: Org } | undefined> {
    return this.x.run(() => this.byHash.get({ hash }));
  }
  setRevoked(id: string, at: string): Promise<void> {
    return this.x.run((db) => {
      db.update(apiKeys).set({ revokedAt: at }).where(eq(apiKeys.id, id)).run();
    });
  }
  revokeOwn(orgId: string, keyId: string, at: string): Promise<boolean> {
    return this.x.run(
      (db) =>
        db
          .update(apiKeys)
          // Idempotent: a second revoke keeps the first revocation time.
          .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at})` })
          .where(and(eq(apiKeys.id, keyId), eq(apiKeys.orgId, orgId)))
          .returning({ id: apiKeys.id })
          .all().length > 0,
    );
  }
  listKeys(orgId: string): Promise<KeyListing[]> {
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
        .where(eq(apiKeys.orgId, orgId))
        .all(),
    );
  }
}
