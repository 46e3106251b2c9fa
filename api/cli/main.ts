/**
 * `portolan`: one entry point for what an operator does, on the database of PORTOLAN_DB. Every
 * command answers --help and --version; commands that print records take --json; every flag is
 * checked before anything is written. The value a script needs (an org id, a new key, a sheet id)
 * is printed on the last line. Exit codes: 0 done, 2 refused (nothing written), 1 failed after it
 * began (what it wrote rolled back; for a distance question, no answer: api/cli/distance.ts).
 */
import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { keyCommands, orgCommands, planCommands } from "./accounts.ts";
import { announceCommand, dbCommands } from "./admin.ts";
import { type Cli, CommandFailed, UsageError } from "./context.ts";
import { distanceCommands } from "./distance.ts";
import { ratesCommands } from "./rates.ts";
import { routeCommands } from "./routes.ts";
import { webhooksCommands } from "./webhooks.ts";

export { CommandFailed, UsageError };

/** Every command of `portolan`, printing through `cli.out`; help and errors go to `err`. */
export function program(cli: Cli, err: (text: string) => void): Command {
  const root = new Command("portolan")
    .description(
      "Portolan administration: organisations, keys, plans, announcements, rate sheets, databases, routes and places (one or a batch), a local webhook receiver",
    )
    .exitOverride()
    // A command's flags come after its name and before a subcommand's: `route --date` is one
    // route's, `route batch --date` the batch's.
    .enablePositionalOptions()
    // Commander's own error line is left out: run() throws it as a UsageError, printed once.
    .configureOutput({
      writeOut: (text) => cli.out(text.trimEnd()),
      writeErr: (text) => err(text),
      outputError: () => {},
    });
  orgCommands(root, cli);
  keyCommands(root, cli);
  planCommands(root, cli);
  announceCommand(root, cli);
  dbCommands(root, cli);
  ratesCommands(root, cli);
  routeCommands(root, cli);
  distanceCommands(root, cli);
  webhooksCommands(root, cli);
  withVersion(root);
  return root;
}

/** --version on the root and on every command under it. */
function withVersion(command: Command): void {
  command.version(packageJson.version, "-V, --version");
  for (const sub of command.commands) withVersion(sub);
}

/** What the command line's first word takes ("usage: portolan db copy"), else where to look. */
function usage(root: Command, argv: string[]): string {
  const group = root.commands.find((c) => c.name() === argv[0]);
  const subs = group?.commands.map((c) => c.name()) ?? [];
  // A group with flags of its own (route) also answers by itself.
  const own = group?.options.some((o) => o.long !== "--version") ? "[flags]|" : "";
  if (group && subs.length)
    return `usage: portolan ${group.name()} ${own}${subs.join("|")} (--help lists their flags)`;
  return "portolan --help lists the commands and their flags";
}

/** Runs one command line; throws UsageError (exit 2) or CommandFailed (exit 1) when it does not succeed. */
export async function run(
  argv: string[],
  out: (line: string) => void,
  err = (text: string) => process.stderr.write(text),
) {
  const root = program({ out, now: Date.now() }, err);
  if (argv.length === 0) {
    root.outputHelp();
    throw new UsageError("a command is needed");
  }
  try {
    await root.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    // Help and version are answers, not failures; commander has printed them.
    if (e.exitCode === 0) return;
    throw new UsageError(`${e.message.replace(/^error: /, "")}; ${usage(root, argv)}`);
  }
}

if (import.meta.main) {
  try {
    await run(process.argv.slice(2), (line) => console.log(line));
  } catch (e) {
    if (e instanceof CommandFailed) {
      console.error(`portolan: ${e.message}`);
      process.exit(1);
    }
    if (!(e instanceof UsageError)) throw e;
    console.error(`portolan: ${e.message}`);
    process.exit(2);
  }
}
