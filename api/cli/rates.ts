/**
 * `portolan rates ...`: the operator's rate sheets (docs/rates.md).
 *   rates import --org <id or name> <file.csv|file.json>   checks the whole file, then imports it in
 *                                                         one transaction (or nothing, on any error)
 *   rates list [--org <id or name>]
 *   rates delete <sheet id>
 * The value a script needs (the sheet id) is printed on the last line.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { readRateFile } from "../../engine/rates/file.ts";
import { RateFileError } from "../../engine/rates/sheet.ts";
import { importSheet } from "../../ingest/rates/import.ts";
import type { Storage } from "../../storage/storage.ts";
import type { AccountsRepo } from "../accounts/repo.ts";

export interface RatesCli {
  storage: Storage;
  accounts: AccountsRepo;
  out: (line: string) => void;
  /** Ends the command with a usage error (exit 2), nothing written. */
  fail: (message: string) => never;
  now: number;
}

/** An organisation by id, else by its exact name (which must then be unique). */
async function orgOf(cli: RatesCli, ref: string | undefined): Promise<{ id: string; name: string }> {
  if (!ref) return cli.fail("missing --org (an organisation id or name)");
  const byId = await cli.accounts.getOrg(ref);
  if (byId) return byId;
  const named = (await cli.accounts.listOrgs()).filter((o) => o.name === ref);
  if (named.length === 1) return named[0]!;
  return cli.fail(
    named.length ? `${named.length} organisations are named "${ref}": give the id` : `no organisation ${ref}`,
  );
}

export async function ratesCommand(
  cli: RatesCli,
  verb: string | undefined,
  args: string[],
  org: string | undefined,
): Promise<void> {
  switch (verb) {
    case "import": {
      if (args.length !== 1)
        return cli.fail("usage: portolan rates import --org <id or name> <file.csv|file.json>");
      const path = args[0]!;
      const target = await orgOf(cli, org);
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (err) {
        return cli.fail(`cannot read ${path}: ${(err as Error).message}`);
      }
      const file = basename(path);
      let sheet: ReturnType<typeof readRateFile>;
      try {
        sheet = readRateFile(file, text);
      } catch (err) {
        if (err instanceof RateFileError) return cli.fail(`${file} ${err.message}; nothing was imported`);
        throw err;
      }
      const done = await importSheet(cli.storage, target.id, sheet, file, cli.now);
      const what = {
        added: "imported as a new sheet",
        replaced: `replaced the sheet's rates (version ${done.sheet.version})`,
        unchanged: "unchanged: the sheet already holds these rates",
      }[done.outcome];
      cli.out(
        `${sheet.mode} ${sheet.carrier} "${sheet.name}" for ${target.name}: ${sheet.lines.length} lines, ${sheet.surcharges.length} surcharges, valid ${sheet.validFrom} to ${sheet.validTo}; ${what}`,
      );
      cli.out(done.sheet.id);
      return;
    }
    case "list": {
      if (args.length) return cli.fail("usage: portolan rates list [--org <id or name>]");
      const orgId = org === undefined ? undefined : (await orgOf(cli, org)).id;
      for (const s of await cli.storage.rateSheets.all(orgId)) {
        cli.out(
          `${s.id}  ${s.orgId}  ${s.mode}  ${s.carrier}  "${s.name}"  ${s.currency}  ${s.validFrom}..${s.validTo}  lines=${s.lineCount} v${s.version}  ${s.sourceFile}`,
        );
      }
      return;
    }
    case "delete": {
      if (args.length !== 1) return cli.fail("usage: portolan rates delete <sheet id>");
      const id = args[0]!;
      const sheet = await cli.storage.rateSheets.byId(id);
      if (!sheet || !(await cli.storage.rateSheets.delete(sheet.orgId, id)))
        return cli.fail(`no rate sheet ${id}`);
      cli.out(`deleted rate sheet "${sheet.name}" (${sheet.lineCount} lines)`);
      cli.out(id);
      return;
    }
    default:
      return cli.fail("usage: portolan rates import|list|delete (see docs/rates.md)");
  }
}
