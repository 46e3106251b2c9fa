/**
 * `portolan announce` (api_change_announced to every organisation subscribed) and
 * `portolan db copy` (a SQLite database into an empty PostgreSQL one, all or nothing).
 */
import type { Command } from "commander";
import { CopyRefused, copySqliteToPostgres } from "../../storage/copy.ts";
import { loadConfig, redactedDatabase } from "../config.ts";
import { AnnouncementError, announce, checkAnnouncement } from "../webhooks/announce.ts";
import { type Cli, CommandFailed, UsageError, withAccounts } from "./context.ts";

interface AnnounceFlags {
  title?: string;
  message?: string;
  effectiveDate?: string;
  url?: string;
}

export function announceCommand(program: Command, cli: Cli): void {
  program
    .command("announce")
    .description(
      "queues api_change_announced for every organisation with an active ocean endpoint subscribed to it; last line: the announcement id",
    )
    .option("--title <title>", "the announcement's title")
    .option("--message <message>", "what changes")
    .option("--effective-date <date>", "YYYY-MM-DD the change takes effect")
    .option("--url <url>", "where to read more")
    .action(async (o: AnnounceFlags) => {
      let checked: ReturnType<typeof checkAnnouncement>;
      try {
        checked = checkAnnouncement({
          title: o.title,
          message: o.message,
          effectiveDate: o.effectiveDate,
          url: o.url,
        });
      } catch (err) {
        throw err instanceof AnnouncementError ? new UsageError(err.message) : err;
      }
      const sent = await withAccounts((storage) => announce(storage, checked, cli.now));
      cli.out(
        `api_change_announced "${checked.title}" queued for ${sent.orgIds.length} organisation(s), ${sent.endpoints} endpoint(s)`,
      );
      cli.out(sent.announcementId);
    });
}

export function dbCommands(program: Command, cli: Cli): void {
  program
    .command("db")
    .description("database administration")
    .command("copy")
    .description(
      "copies PORTOLAN_DB's SQLite file (or --from) into an empty PostgreSQL database, in one transaction",
    )
    .option("--to <url>", "postgres://... (?schema=name optional); required")
    .option("--from <path>", "the SQLite file (default PORTOLAN_DB)")
    .action(async (o: { to?: string; from?: string }) => {
      if (!o.to) throw new UsageError("missing --to postgres://...");
      try {
        const copied = await copySqliteToPostgres(o.from ?? loadConfig().database, o.to, {
          onTable: ({ table, rows }) => cli.out(`${table}: ${rows} rows`),
        });
        const total = copied.reduce((sum, t) => sum + t.rows, 0);
        cli.out(
          `copied ${total} rows in ${copied.length} tables into ${redactedDatabase(o.to)}; counts match`,
        );
      } catch (err) {
        if (err instanceof CopyRefused) throw new UsageError(`db copy: ${err.message}`);
        throw new CommandFailed(`db copy failed, nothing was written: ${(err as Error).message}`, {
          cause: err,
        });
      }
    });
}
