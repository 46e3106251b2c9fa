/**
 * `portolan`: account administration against the configured database (PORTOLAN_DB).
 *   org create <name> [--plan P] [--paid] [--entitle all|none|ocean,air,...]
 *   org list
 *   key create --org ID --product ocean|air|schedules|loading|rates|distance [--label L] [--expires ISO|Nd]
 *   key list --org ID
 *   key revoke <key-id or key>
 *   plan set --org ID [--plan P] [--paid|--free] [--shipments N|none] [--containers N|none]
 *            [--payg-cap USD|none] [--payg-price USD|none] [--rate-limit N|none]
 *            [--entitle product[:expiry],...] [--revoke product,...]
 *   announce --title T --message M [--effective-date YYYY-MM-DD] [--url URL]
 *   db copy --to postgres://... [--from PATH]   (PORTOLAN_DB's SQLite file into an empty PostgreSQL)
 *   rates import --org ID|NAME FILE.csv|FILE.json, rates list [--org ID|NAME], rates delete SHEET-ID
 *     (api/cli/rates.ts, docs/rates.md)
 * The value a script needs (org id, new key) is always printed on the last line.
 */
import { parseArgs } from "node:util";
import { CopyRefused, copySqliteToPostgres } from "../../storage/copy.ts";
import { openStorage } from "../../storage/open.ts";
import { AccountsRepo, type PlanSettings } from "../accounts/repo.ts";
import { loadConfig, redactedDatabase } from "../config.ts";
import { isProductId, PRODUCT_IDS, type ProductId } from "../shared/products.ts";
import { AnnouncementError, announce, checkAnnouncement } from "../webhooks/announce.ts";
import { ratesCommand } from "./rates.ts";

class UsageError extends Error {}

const OPTIONS = {
  org: { type: "string" },
  product: { type: "string" },
  label: { type: "string" },
  expires: { type: "string" },
  plan: { type: "string" },
  paid: { type: "boolean" },
  free: { type: "boolean" },
  shipments: { type: "string" },
  containers: { type: "string" },
  "payg-cap": { type: "string" },
  "payg-price": { type: "string" },
  "rate-limit": { type: "string" },
  entitle: { type: "string" },
  revoke: { type: "string" },
  title: { type: "string" },
  message: { type: "string" },
  "effective-date": { type: "string" },
  url: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
} as const;

/** "2027-01-31", an ISO instant, or "30d" from now. */
export function parseExpiry(value: string, now: number): string {
  const days = /^(\d+)d$/.exec(value);
  if (days) return new Date(now + Number(days[1]) * 86_400_000).toISOString();
  const t = Date.parse(value);
  if (Number.isNaN(t))
    throw new UsageError(`cannot read expiry "${value}" (use 2027-01-31, an ISO instant or 30d)`);
  return new Date(t).toISOString();
}

function productList(value: string): ProductId[] {
  if (value === "all") return [...PRODUCT_IDS];
  if (value === "none") return [];
  return value.split(",").map((p) => {
    const id = p.trim();
    if (!isProductId(id)) throw new UsageError(`unknown product "${id}" (one of ${PRODUCT_IDS.join(", ")})`);
    return id;
  });
}

function nullableNumber(value: string | undefined, name: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "none") return null;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} takes a non-negative number or "none"`);
  return n;
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

/** Thrown when `db copy` failed after it began: the transaction rolled back, the target is unchanged. */
class CopyFailed extends Error {}

async function dbCopy(
  args: string[],
  from: string | undefined,
  to: string | undefined,
  out: (line: string) => void,
) {
  if (args.join(" ") !== "copy")
    throw new UsageError("usage: portolan db copy --to postgres://... [--from PATH]");
  const target = need(to, "--to postgres://...");
  try {
    const copied = await copySqliteToPostgres(from ?? loadConfig().database, target, {
      onTable: ({ table, rows }) => out(`${table}: ${rows} rows`),
    });
    const total = copied.reduce((sum, t) => sum + t.rows, 0);
    out(`copied ${total} rows in ${copied.length} tables into ${redactedDatabase(target)}; counts match`);
  } catch (err) {
    if (err instanceof CopyRefused) throw new UsageError(`db copy: ${err.message}`);
    throw new CopyFailed(`db copy failed, nothing was written: ${(err as Error).message}`, { cause: err });
  }
}

export async function run(argv: string[], out: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [noun, verb, ...rest] = positionals;
  // Opens its own source and target, not PORTOLAN_DB's storage.
  if (noun === "db") return dbCopy(positionals.slice(1), values.from, values.to, out);
  // Checked before the database opens: a bad announcement writes nothing.
  const announcement =
    noun === "announce"
      ? (() => {
          if (positionals.length > 1)
            throw new UsageError("announce takes --title and --message, no arguments");
          try {
            return checkAnnouncement({
              title: values.title,
              message: values.message,
              effectiveDate: values["effective-date"],
              url: values.url,
            });
          } catch (err) {
            throw err instanceof AnnouncementError ? new UsageError(err.message) : err;
          }
        })()
      : null;
  const storage = await openStorage(loadConfig().database);
  const repo = new AccountsRepo(storage);
  const now = Date.now();
  const orgId = async () => {
    const id = need(values.org, "--org");
    if (!(await repo.getOrg(id))) throw new UsageError(`no organisation ${id}`);
    return id;
  };
  try {
    if (announcement) {
      const sent = await announce(storage, announcement, now);
      out(
        `api_change_announced "${announcement.title}" queued for ${sent.orgIds.length} organisation(s), ${sent.endpoints} endpoint(s)`,
      );
      out(sent.announcementId);
      return;
    }
    if (noun === "rates") {
      const fail = (message: string): never => {
        throw new UsageError(message);
      };
      return await ratesCommand({ storage, accounts: repo, out, fail, now }, verb, rest, values.org);
    }
    switch (`${noun} ${verb}`) {
      case "org create": {
        const org = await repo.createOrg(need(rest.join(" "), "organisation name"), {
          plan: values.plan ?? (values.paid ? "pro" : "free"),
          paid: values.paid ?? false,
        });
        for (const p of productList(values.entitle ?? "all")) await repo.setEntitlement(org.id, p, null);
        out(`organisation ${org.name} (plan ${org.plan})`);
        out(org.id);
        return;
      }
      case "org list": {
        for (const o of await repo.listOrgs()) out(`${o.id}  ${o.name}  plan=${o.plan} paid=${o.paid}`);
        return;
      }
      case "key create": {
        const product = need(values.product, "--product");
        if (!isProductId(product)) throw new UsageError(`unknown product "${product}"`);
        const created = await repo.createKey(await orgId(), product, {
          label: values.label,
          expiresAt: values.expires ? parseExpiry(values.expires, now) : null,
        });
        out(`key ${created.id} for ${product} (shown once; only its hash is stored)`);
        out(created.key);
        return;
      }
      case "key list": {
        for (const k of await repo.listKeys(await orgId())) {
          const state = k.revokedAt
            ? "revoked"
            : k.expiresAt && Date.parse(k.expiresAt) <= now
              ? "expired"
              : "active";
          out(`${k.id}  ${k.product}  ${k.hint}  ${state}${k.label ? `  ${k.label}` : ""}`);
        }
        return;
      }
      case "key revoke": {
        const target = need(rest[0], "key id or key");
        if (!(await repo.revokeKey(target))) throw new UsageError(`no key ${target}`);
        out(`revoked ${target.includes("_") ? "key" : target}`);
        return;
      }
      case "plan set": {
        const id = await orgId();
        const settings: PlanSettings = {
          plan: values.plan,
          paid: values.paid ? true : values.free ? false : undefined,
          shipmentQuota: nullableNumber(values.shipments, "shipments"),
          containerSlots: nullableNumber(values.containers, "containers"),
          paygSpendCapUsd: nullableNumber(values["payg-cap"], "payg-cap"),
          paygUnitPriceUsd: nullableNumber(values["payg-price"], "payg-price"),
          rateLimit: nullableNumber(values["rate-limit"], "rate-limit"),
        };
        // Parse everything before writing anything: a bad flag leaves the account unchanged.
        const grants = (values.entitle ? values.entitle.split(",") : []).flatMap((item) => {
          const [p, expiry] = item.split(/:(.+)/);
          const until = expiry ? parseExpiry(expiry, now) : null;
          return productList(p!).map((pid) => [pid, until] as const);
        });
        const removals = values.revoke ? productList(values.revoke) : [];
        const org = await repo.setPlan(id, settings);
        for (const [pid, until] of grants) await repo.setEntitlement(id, pid, until);
        for (const pid of removals) await repo.removeEntitlement(id, pid);
        out(
          `plan ${org.plan} paid=${org.paid} shipments=${org.shipmentQuota ?? "uncapped"} containers=${org.containerSlots ?? "uncapped"} payg_cap=${org.paygSpendCapUsd ?? "none"}`,
        );
        out(org.id);
        return;
      }
      default:
        throw new UsageError(
          "usage: portolan org create|org list|key create|key list|key revoke|plan set|announce|db copy|rates (see README)",
        );
    }
  } finally {
    await storage.close();
  }
}

if (import.meta.main) {
  try {
    await run(process.argv.slice(2), (line) => console.log(line));
  } catch (err) {
    if (err instanceof CopyFailed) {
      console.error(`portolan: ${err.message}`);
      process.exit(1);
    }
    if (!(err instanceof UsageError) && !(err instanceof TypeError)) throw err;
    console.error(`portolan: ${err.message}`);
    process.exit(2);
  }
}
