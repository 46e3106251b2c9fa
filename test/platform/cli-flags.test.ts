/**
 * `portolan` as an operator meets it, through real `bin/portolan` processes on a SQLite file:
 * --help and --version answer with exit 0 on every command, --json prints what the lines say, and
 * every refused flag exits 2 naming the flag and writes nothing (a bad --entitle creates no
 * organisation, an expiry already past issues no key, --paid with --free changes nothing).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { program } from "../../api/cli/main.ts";
import packageJson from "../../package.json" with { type: "json" };
import { runCli } from "../helpers/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-cli-"));
const database = join(dir, "cli.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  return runCli(args, { ...process.env, PORTOLAN_DB: database });
}

/** Every command path of the program: ["org"], ["org", "create"], ... */
function commandPaths(): string[][] {
  const root = program({ out: () => {}, now: 0 }, () => {});
  const walk = (cmd: typeof root, path: string[]): string[][] =>
    cmd.commands.flatMap((c) => [[...path, c.name()], ...walk(c, [...path, c.name()])]);
  return walk(root, []);
}

test.each([[], ...commandPaths()])("portolan %p --help and --version exit 0", (...path: string[]) => {
  const help = cli(...path, "--help");
  expect(help.code).toBe(0);
  expect(help.out[0]).toStartWith(`Usage: portolan${path.length ? ` ${path.join(" ")}` : ""}`);
  const version = cli(...path, "--version");
  expect({ code: version.code, out: version.out }).toEqual({ code: 0, out: [packageJson.version] });
});

const orgs = () =>
  JSON.parse(cli("org", "list", "--json").out.join("\n")) as Array<{ id: string; name: string }>;

test("a bad --entitle creates no organisation", () => {
  const bad = cli("org", "create", "Typo Freight", "--entitle", "ocen");
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/^portolan: --entitle: unknown product "ocen"/);
  expect(orgs().map((o) => o.name)).not.toContain("Typo Freight");
});

test("--json prints the records the lines show", () => {
  const made = JSON.parse(cli("org", "create", "Json Freight", "--entitle", "ocean,rates", "--json").out[0]!);
  expect(made).toMatchObject({
    name: "Json Freight",
    plan: "free",
    paid: false,
    entitled: ["ocean", "rates"],
  });
  expect(orgs().find((o) => o.id === made.id)?.name).toBe("Json Freight");
  const key = JSON.parse(cli("key", "create", "--org", made.id, "--product", "rates", "--json").out[0]!);
  expect(key.key).toStartWith("rt_");
  const listed = JSON.parse(cli("key", "list", "--org", made.id, "--json").out[0]!);
  expect(listed).toEqual([expect.objectContaining({ id: key.id, product: "rates", state: "active" })]);
});

test("an expiry already past, an unknown product and --paid with --free are refused and write nothing", () => {
  const org = cli("org", "create", "Flag Freight").out.at(-1)!;
  const keys = () => JSON.parse(cli("key", "list", "--org", org, "--json").out[0]!) as unknown[];
  const past = cli("key", "create", "--org", org, "--product", "ocean", "--expires", "2020-01-01");
  expect(past.code).toBe(2);
  expect(past.err).toMatch(/--expires: 2020-01-01 is not in the future/);
  const product = cli("key", "create", "--org", org, "--product", "oceans");
  expect(product.code).toBe(2);
  expect(product.err).toMatch(/--product/);
  expect(keys()).toEqual([]);
  const both = cli("plan", "set", "--org", org, "--paid", "--free", "--plan", "pro");
  expect(both.code).toBe(2);
  expect(both.err).toMatch(/'--paid' cannot be used with option '--free'/);
  const grantAndTake = cli(
    "plan",
    "set",
    "--org",
    org,
    "--plan",
    "pro",
    "--entitle",
    "air",
    "--revoke",
    "air",
  );
  expect(grantAndTake.code).toBe(2);
  expect(grantAndTake.err).toMatch(/--entitle and --revoke both name air/);
  expect(
    JSON.parse(cli("org", "list", "--json").out[0]!).find((o: { id: string }) => o.id === org).plan,
  ).toBe("free");
});

test("an unknown command says what the group takes", () => {
  const r = cli("key", "rotate");
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/usage: portolan key create\|list\|revoke/);
});
