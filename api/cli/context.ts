/**
 * What every `portolan` command shares: where its lines go, the clock, the usage error (exit 2,
 * nothing written), and the database of PORTOLAN_DB opened only once a command has checked its
 * flags, so a refused command never touches it.
 */
import { openStorage } from "../../storage/open.ts";
import type { Storage } from "../../storage/storage.ts";
import { AccountsRepo } from "../accounts/repo.ts";
import { loadConfig } from "../config.ts";

/** A command refused before it wrote anything: exit 2 with the message. */
export class UsageError extends Error {}

/** A command that began writing and failed: whatever it wrote was rolled back; exit 1. */
export class CommandFailed extends Error {}

export interface Cli {
  out: (line: string) => void;
  now: number;
}

/** Runs `work` on the configured database, closing it after. */
export async function withAccounts<T>(
  work: (storage: Storage, accounts: AccountsRepo) => Promise<T>,
): Promise<T> {
  const storage = await openStorage(loadConfig().database);
  try {
    return await work(storage, new AccountsRepo(storage));
  } finally {
    await storage.close();
  }
}

/** Records as JSON (one document) for --json, else each as its text line. */
export function print<T>(cli: Cli, json: boolean, records: T[], line: (r: T) => string): void {
  if (json) cli.out(JSON.stringify(records));
  else for (const r of records) cli.out(line(r));
}

/** The organisation `id` names, or a usage error. */
export async function existingOrg(accounts: AccountsRepo, id: string): Promise<string> {
  if (!(await accounts.getOrg(id))) throw new UsageError(`--org: no organisation ${id}`);
  return id;
}

/** An organisation by id, else by its exact name (which must then be unique). */
export async function orgOf(accounts: AccountsRepo, ref: string): Promise<{ id: string; name: string }> {
  const byId = await accounts.getOrg(ref);
  if (byId) return byId;
  const named = (await accounts.listOrgs()).filter((o) => o.name === ref);
  if (named.length === 1) return named[0]!;
  throw new UsageError(
    named.length
      ? `--org: ${named.length} organisations are named "${ref}": give the id`
      : `--org: no organisation ${ref}`,
  );
}
