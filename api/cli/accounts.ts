/**
 * `portolan org|key|plan ...`: organisations, keys, plans and entitlements. Every flag is read and
 * checked before the database opens: a bad --entitle creates no organisation, a key that would
 * already be expired is refused, --paid with --free is refused, each naming the flag.
 */
import { type Command, Option } from "commander";
import type { KeyListing, Org, PlanSettings } from "../accounts/repo.ts";
import { isProductId, PRODUCT_IDS, type ProductId } from "../shared/products.ts";
import { type Cli, existingOrg, print, UsageError, withAccounts } from "./context.ts";

/** "2027-01-31", an ISO instant, or "30d" from now; `flag` names it in a refusal. */
export function parseExpiry(value: string, now: number, flag: string): string {
  const days = /^(\d+)d$/.exec(value);
  if (days) return new Date(now + Number(days[1]) * 86_400_000).toISOString();
  const t = Date.parse(value);
  if (Number.isNaN(t))
    throw new UsageError(`${flag}: cannot read "${value}" (use 2027-01-31, an ISO instant or 30d)`);
  return new Date(t).toISOString();
}

/** "all", "none" or a comma-separated list of products. */
function productList(value: string, flag: string): ProductId[] {
  if (value === "all") return [...PRODUCT_IDS];
  if (value === "none") return [];
  return value.split(",").map((p) => {
    const id = p.trim();
    if (!isProductId(id))
      throw new UsageError(`${flag}: unknown product "${id}" (one of ${PRODUCT_IDS.join(", ")})`);
    return id;
  });
}

function nullableNumber(value: string | undefined, flag: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "none") return null;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} takes a non-negative number or "none"`);
  return n;
}

const orgView = (o: Org) => ({ id: o.id, name: o.name, plan: o.plan, paid: o.paid, created_at: o.createdAt });

function keyState(k: KeyListing, now: number): "revoked" | "expired" | "active" {
  if (k.revokedAt) return "revoked";
  return k.expiresAt && Date.parse(k.expiresAt) <= now ? "expired" : "active";
}

export function orgCommands(program: Command, cli: Cli): void {
  const org = program.command("org").description("organisations");
  org
    .command("create")
    .description("a new organisation (default: free plan, entitled to every product); last line: its id")
    .argument("<name...>", "its name")
    .option("--plan <plan>", "plan name (default free, or pro with --paid)")
    .option("--paid", "a paying organisation")
    .option("--entitle <products>", "all, none or a comma-separated list of products", "all")
    .option("--json", "print the organisation as JSON")
    .action(async (name: string[], o: { plan?: string; paid?: boolean; entitle: string; json?: boolean }) => {
      const products = productList(o.entitle, "--entitle");
      const created = await withAccounts(async (_, accounts) => {
        const made = await accounts.createOrg(name.join(" "), {
          plan: o.plan ?? (o.paid ? "pro" : "free"),
          paid: o.paid ?? false,
        });
        for (const p of products) await accounts.setEntitlement(made.id, p, null);
        return made;
      });
      if (o.json) return cli.out(JSON.stringify({ ...orgView(created), entitled: products }));
      cli.out(`organisation ${created.name} (plan ${created.plan})`);
      cli.out(created.id);
    });
  org
    .command("list")
    .description("every organisation")
    .option("--json", "print them as a JSON array")
    .action(async (o: { json?: boolean }) => {
      const orgs = await withAccounts((_, accounts) => accounts.listOrgs());
      print(
        cli,
        o.json ?? false,
        orgs.map(orgView),
        (v) => `${v.id}  ${v.name}  plan=${v.plan} paid=${v.paid}`,
      );
    });
}

export function keyCommands(program: Command, cli: Cli): void {
  const key = program.command("key").description("API keys");
  key
    .command("create")
    .description("a new key, printed once on the last line (only its SHA-256 is stored)")
    .requiredOption("--org <id>", "the organisation")
    .addOption(
      new Option("--product <product>", "the product it opens").choices(PRODUCT_IDS).makeOptionMandatory(),
    )
    .option("--label <label>", "a label to recognise it by")
    .option("--expires <when>", "2027-01-31, an ISO instant, or 30d from now")
    .option("--json", "print the key and its id as JSON")
    .action(
      async (o: { org: string; product: ProductId; label?: string; expires?: string; json?: boolean }) => {
        const expiresAt = o.expires === undefined ? null : parseExpiry(o.expires, cli.now, "--expires");
        if (expiresAt !== null && Date.parse(expiresAt) <= cli.now)
          throw new UsageError(`--expires: ${o.expires} is not in the future; the key would never work`);
        const created = await withAccounts(async (_, accounts) =>
          accounts.createKey(await existingOrg(accounts, o.org), o.product, { label: o.label, expiresAt }),
        );
        if (o.json)
          return cli.out(
            JSON.stringify({ id: created.id, product: o.product, key: created.key, expires_at: expiresAt }),
          );
        cli.out(`key ${created.id} for ${o.product} (shown once; only its hash is stored)`);
        cli.out(created.key);
      },
    );
  key
    .command("list")
    .description("an organisation's keys with a hint and their state (active, revoked, expired)")
    .requiredOption("--org <id>", "the organisation")
    .option("--json", "print them as a JSON array")
    .action(async (o: { org: string; json?: boolean }) => {
      const keys = await withAccounts(async (_, accounts) =>
        accounts.listKeys(await existingOrg(accounts, o.org)),
      );
      const views = keys.map((k) => ({ ...k, state: keyState(k, cli.now) }));
      print(
        cli,
        o.json ?? false,
        views,
        (k) => `${k.id}  ${k.product}  ${k.hint}  ${k.state}${k.label ? `  ${k.label}` : ""}`,
      );
    });
  key
    .command("revoke")
    .description("revokes a key at once, also for a running server")
    .argument("<key>", "the key's id, or the key itself")
    .action(async (target: string) => {
      if (!(await withAccounts((_, accounts) => accounts.revokeKey(target))))
        throw new UsageError(`no key ${target}`);
      cli.out(`revoked ${target.includes("_") ? "key" : target}`);
    });
}

interface PlanFlags {
  org: string;
  plan?: string;
  paid?: boolean;
  free?: boolean;
  shipments?: string;
  containers?: string;
  paygCap?: string;
  paygPrice?: string;
  rateLimit?: string;
  entitle?: string;
  revoke?: string;
}

/** Every flag of `plan set` read and checked: nothing is written before this returns. */
function planChanges(o: PlanFlags, now: number) {
  const settings: PlanSettings = {
    plan: o.plan,
    paid: o.paid ? true : o.free ? false : undefined,
    shipmentQuota: nullableNumber(o.shipments, "--shipments"),
    containerSlots: nullableNumber(o.containers, "--containers"),
    paygSpendCapUsd: nullableNumber(o.paygCap, "--payg-cap"),
    paygUnitPriceUsd: nullableNumber(o.paygPrice, "--payg-price"),
    rateLimit: nullableNumber(o.rateLimit, "--rate-limit"),
  };
  const grants = (o.entitle ? o.entitle.split(",") : []).flatMap((item) => {
    const [p, expiry] = item.split(/:(.+)/);
    const until = expiry ? parseExpiry(expiry, now, "--entitle") : null;
    return productList(p!, "--entitle").map((pid) => [pid, until] as const);
  });
  const removals = o.revoke ? productList(o.revoke, "--revoke") : [];
  const overlap = removals.filter((p) => grants.some(([g]) => g === p));
  if (overlap.length) throw new UsageError(`--entitle and --revoke both name ${overlap.join(", ")}`);
  return { settings, grants, removals };
}

export function planCommands(program: Command, cli: Cli): void {
  program
    .command("plan")
    .description("plans, quotas and entitlements")
    .command("set")
    .description(
      "sets an organisation's plan, quotas, arranged rate ceiling and entitlements; a bad flag changes nothing",
    )
    .requiredOption("--org <id>", "the organisation")
    .option("--plan <plan>", "plan name")
    .addOption(new Option("--paid", "a paying organisation").conflicts("free"))
    .addOption(new Option("--free", "a free organisation").conflicts("paid"))
    .option("--shipments <n>", "monthly unique shipments, or none")
    .option("--containers <n>", "container slots, or none")
    .option("--payg-cap <usd>", "pay-as-you-go spend cap, or none")
    .option("--payg-price <usd>", "pay-as-you-go unit price, or none")
    .option("--rate-limit <n>", "arranged requests per window, or none")
    .option("--entitle <list>", "product[:expiry],... to grant")
    .option("--revoke <products>", "products to take away")
    .action(async (o: PlanFlags) => {
      const { settings, grants, removals } = planChanges(o, cli.now);
      const org = await withAccounts(async (_, accounts) => {
        const id = await existingOrg(accounts, o.org);
        const set = await accounts.setPlan(id, settings);
        for (const [pid, until] of grants) await accounts.setEntitlement(id, pid, until);
        for (const pid of removals) await accounts.removeEntitlement(id, pid);
        return set;
      });
      cli.out(
        `plan ${org.plan} paid=${org.paid} shipments=${org.shipmentQuota ?? "uncapped"} containers=${org.containerSlots ?? "uncapped"} payg_cap=${org.paygSpendCapUsd ?? "none"}`,
      );
      cli.out(org.id);
    });
}
