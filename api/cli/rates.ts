/**
 * `portolan rates ...`: the operator's rate sheets (docs/rates.md).
 *   rates import --org <id or name> <file.csv|file.json>   checks the whole file, then imports it in
 *                                                         one transaction (or nothing, on any error)
 *   rates list [--org <id or name>] [--json]
 *   rates delete <sheet id>
 * The value a script needs (the sheet id) is printed on the last line.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Command } from "commander";
import { readRateFile } from "../../engine/rates/file.ts";
import { RateFileError } from "../../engine/rates/sheet.ts";
import { importSheet } from "../../ingest/rates/import.ts";
import type { Storage } from "../../storage/storage.ts";
import { type Cli, orgOf, print, UsageError, withAccounts } from "./context.ts";

/** The file read and checked whole: a bad row names its line or JSON path, and nothing is written. */
async function sheetOf(path: string): Promise<{ file: string; sheet: ReturnType<typeof readRateFile> }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
  const file = basename(path);
  try {
    return { file, sheet: readRateFile(file, text) };
  } catch (err) {
    if (err instanceof RateFileError) throw new UsageError(`${file} ${err.message}; nothing was imported`);
    throw err;
  }
}

const OUTCOME = {
  added: () => "imported as a new sheet",
  replaced: (version: number) => `replaced the sheet's rates (version ${version})`,
  unchanged: () => "unchanged: the sheet already holds these rates",
} as const;

/**
 * A sheet whose validity ended before today (UTC) imports, as history, but no search offers it:
 * said on its own line between the summary and the id, so the id stays the last line.
 */
function expiryWarning(validTo: string, now: number): string | null {
  const today = new Date(now).toISOString().slice(0, 10);
  if (validTo >= today) return null;
  return `warning: this sheet expired on ${validTo} (today is ${today}): searches offer none of its rates; import one with a current valid_from..valid_to`;
}

async function importCommand(cli: Cli, path: string, org: string): Promise<void> {
  const { file, sheet } = await sheetOf(path);
  const { target, done } = await withAccounts(async (storage: Storage, accounts) => {
    const target = await orgOf(accounts, org);
    return { target, done: await importSheet(storage, target.id, sheet, file, cli.now) };
  });
  cli.out(
    `${sheet.mode} ${sheet.carrier} "${sheet.name}" for ${target.name}: ${sheet.lines.length} lines, ${sheet.surcharges.length} surcharges, valid ${sheet.validFrom} to ${sheet.validTo}; ${OUTCOME[done.outcome](done.sheet.version)}`,
  );
  const warning = expiryWarning(sheet.validTo, cli.now);
  if (warning) cli.out(warning);
  cli.out(done.sheet.id);
}

export function ratesCommands(program: Command, cli: Cli): void {
  const rates = program.command("rates").description("rate sheets (docs/rates.md)");
  rates
    .command("import")
    .description("checks the whole file, then imports it in one transaction; last line: the sheet id")
    .requiredOption("--org <org>", "the organisation's id or exact name")
    .argument("<file>", "a .csv or .json rate file")
    .action((file: string, o: { org: string }) => importCommand(cli, file, o.org));
  rates
    .command("list")
    .description("rate sheets, of one organisation or all")
    .option("--org <org>", "the organisation's id or exact name")
    .option("--json", "print them as a JSON array")
    .action(async (o: { org?: string; json?: boolean }) => {
      const sheets = await withAccounts(async (storage, accounts) =>
        storage.rateSheets.all(o.org === undefined ? undefined : (await orgOf(accounts, o.org)).id),
      );
      print(
        cli,
        o.json ?? false,
        sheets,
        (s) =>
          `${s.id}  ${s.orgId}  ${s.mode}  ${s.carrier}  "${s.name}"  ${s.currency}  ${s.validFrom}..${s.validTo}  lines=${s.lineCount} v${s.version}  ${s.sourceFile}`,
      );
    });
  rates
    .command("delete")
    .description("deletes a rate sheet; last line: its id")
    .argument("<sheet>", "the sheet id")
    .action(async (id: string) => {
      const sheet = await withAccounts(async (storage) => {
        const found = await storage.rateSheets.byId(id);
        return found && (await storage.rateSheets.delete(found.orgId, id)) ? found : null;
      });
      if (!sheet) throw new UsageError(`no rate sheet ${id}`);
      cli.out(`deleted rate sheet "${sheet.name}" (${sheet.lineCount} lines)`);
      cli.out(id);
    });
}
