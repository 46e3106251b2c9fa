/**
 * Organisations, plans, API keys and entitlements. The only module that writes these tables; the
 * CLI and the auth plugin both go through it.
 */
import type { KeyListing } from "../../storage/accounts.ts";
import type { Org } from "../../storage/orgs.ts";
import type { Storage } from "../../storage/storage.ts";
import { constantTimeEqual, sha256Hex } from "../shared/crypto.ts";
import type { ProductId } from "../shared/products.ts";
import { mintKey } from "./keys.ts";

export type { KeyListing } from "../../storage/accounts.ts";
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

/** Milliseconds between reads of storage.dataVersion (see revalidate). */
const RECHECK_MS = 5;
/**
 * The longest a cached key, plan or entitlement decision is used without reading it again: the
 * bound for a change no signal reached this process with (made while its LISTEN connection was
 * away, or written to the tables by hand). docs/storage.md.
 */
export const CACHE_MAX_AGE_MS = 5_000;

/**
 * Every method is async: the statements run through the storage repositories (storage/accounts.ts).
 */

export class AccountsRepo {
  /**
   * Principals by key hash. Emptied when another connection or process may have changed accounts
   * (storage.dataVersion moves: SQLite's data_version, PostgreSQL's NOTIFY or a new LISTEN), on
   * every write through this repo, so a revocation anywhere takes effect within milliseconds, and
   * CACHE_MAX_AGE_MS after the last emptying in any case.
   */
  private readonly principals = new Map<string, Principal & { keyExpiresAt: string | null }>();
  /** Entitlement expiry per `org|product` (null: none granted), on the same terms as principals. */
  private readonly entitlements = new Map<string, { expiresAt: string | null } | null>();
  private seenVersion = -1;
  /** When dataVersion was last read (performance.now()). */
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** When the caches were last emptied (performance.now()): nothing in them was read before. */
  private clearedAt = performance.now();
  /** Moves on every clear: a lookup that started before one does not refill the cache with a stale row. */
  private generation = 0;

  constructor(
    private readonly storage: Storage,
    private readonly now: () => number = Date.now,
  ) {}

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  private forget(): void {
    this.principals.clear();
    this.entitlements.clear();
    this.generation++;
    this.clearedAt = performance.now();
  }

  /**
   * Empties the caches when another connection or process may have changed accounts. SQLite's
   * data_version opens a read transaction (about 2 us, a tenth of a cached keyed request), so it
   * is read at most every RECHECK_MS: another process's change shows within that (the bound for
   * revocations is a second); this repo's own writes clear at once. Whatever the signals say, the
   * caches are emptied CACHE_MAX_AGE_MS after they last were.
   */
  private revalidate(): void {
    const at = performance.now();
    if (this.principals.size + this.entitlements.size > 10_000 || at - this.clearedAt >= CACHE_MAX_AGE_MS) {
      this.forget();
    }
    if (at - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = at;
    const version = this.storage.dataVersion();
    if (version !== this.seenVersion) {
      this.forget();
      this.seenVersion = version;
    }
  }

  async createOrg(name: string, plan: PlanSettings = {}): Promise<Org> {
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
    await this.storage.accounts.insertOrg(row);
    this.forget();
    return row;
  }

  getOrg(id: string): Promise<Org | undefined> {
    return this.storage.orgs.get(id);
  }

  listOrgs(): Promise<Org[]> {
    return this.storage.accounts.listOrgs();
  }

  async setPlan(orgId: string, plan: PlanSettings): Promise<Org> {
    const changes = Object.fromEntries(Object.entries(plan).filter(([, v]) => v !== undefined));
    await this.storage.accounts.updateOrg(orgId, changes);
    this.forget();
    const org = await this.getOrg(orgId);
    if (!org) throw new Error(`no organisation ${orgId}`);
    return org;
  }

  /** Grants (or renews) a product; expiresAt null = no expiry. */
  async setEntitlement(orgId: string, productId: ProductId, expiresAt: string | null): Promise<void> {
    await this.storage.accounts.upsertEntitlement(orgId, productId, expiresAt);
    this.forget();
  }

  async removeEntitlement(orgId: string, productId: ProductId): Promise<void> {
    await this.storage.accounts.deleteEntitlement(orgId, productId);
    this.forget();
  }

  /**
   * "active", "expired" or "none" for the product at the current time. The row is cached like a
   * principal (every request of /v1/account and every write asks); expiry is judged per call.
   */
  async entitlement(orgId: string, productId: ProductId): Promise<"active" | "expired" | "none"> {
    this.revalidate();
    const key = `${orgId}|${productId}`;
    let grant = this.entitlements.get(key);
    if (grant === undefined) {
      const generation = this.generation;
      const row = await this.storage.accounts.entitlement(orgId, productId);
      grant = row ? { expiresAt: row.expiresAt } : null;
      if (generation === this.generation) this.entitlements.set(key, grant);
    }
    if (!grant) return "none";
    return grant.expiresAt !== null && Date.parse(grant.expiresAt) <= this.now() ? "expired" : "active";
  }

  async createKey(
    orgId: string,
    productId: ProductId,
    opts: { label?: string; expiresAt?: string | null } = {},
  ): Promise<{ id: string; key: string; hint: string }> {
    if (!(await this.getOrg(orgId))) throw new Error(`no organisation ${orgId}`);
    const minted = await mintKey(productId);
    const id = crypto.randomUUID();
    await this.storage.accounts.insertKey({
      id,
      orgId,
      product: productId,
      hash: minted.hash,
      hint: minted.hint,
      label: opts.label ?? null,
      createdAt: this.iso(),
      expiresAt: opts.expiresAt ?? null,
      revokedAt: null,
    });
    return { id, key: minted.key, hint: minted.hint };
  }

  /** Revokes by key id or by the key itself; returns false when nothing matched. */
  async revokeKey(idOrKey: string): Promise<boolean> {
    const hash = await sha256Hex(idOrKey);
    const row =
      (await this.storage.accounts.keyById(idOrKey)) ?? (await this.storage.accounts.keyByHash(hash));
    if (!row) return false;
    await this.storage.accounts.setRevoked(row.id, this.iso());
    this.forget();
    return true;
  }

  /** Revokes one key of `orgId`; false when the id is unknown or belongs to another organisation. */
  /** Revokes a key of the organisation for one product; false for any other key (answered as unknown). */
  async revokeOwnKey(orgId: string, product: ProductId, keyId: string): Promise<boolean> {
    const revoked = await this.storage.accounts.revokeOwn(orgId, product, keyId, this.iso());
    this.forget();
    return revoked;
  }

  /** The organisation's keys of one product, or of all (the operator's CLI) without one. */
  listKeys(orgId: string, product: ProductId | null = null): Promise<KeyListing[]> {
    return this.storage.accounts.listKeys(orgId, product);
  }

  /**
   * The principal behind a presented key, or null when it is unknown, revoked or expired. The hash
   * is looked up by index, then compared in constant time so the final decision leaks nothing.
   */
  async authenticate(key: string): Promise<Principal | null> {
    const hash = await sha256Hex(key);
    this.revalidate();
    let principal = this.principals.get(hash);
    if (!principal) {
      const generation = this.generation;
      const row = await this.storage.accounts.principalByHash(hash);
      if (!row || !constantTimeEqual(row.key.hash, hash) || row.key.revokedAt !== null) return null;
      principal = {
        org: row.org,
        keyId: row.key.id,
        keyProduct: row.key.product as ProductId,
        keyExpiresAt: row.key.expiresAt,
      };
      if (generation === this.generation) this.principals.set(hash, principal);
    }
    if (principal.keyExpiresAt !== null && Date.parse(principal.keyExpiresAt) <= this.now()) return null;
    return { org: principal.org, keyId: principal.keyId, keyProduct: principal.keyProduct };
  }
}
