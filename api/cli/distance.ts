/**
 * `portolan route`, `portolan multimodal` and `portolan locations`: one question from a shell,
 * asked of the distance engine the HTTP API calls (engine/distance/engine.ts) after the same
 * parsing (engine/distance/requests.ts), so --json prints the HTTP answer's data. Each flag is the
 * query parameter of the same name (with - for _), listed from the HTTP schemas
 * (api/distance/schemas.ts); the true-or-false ones are switches (--path, or --path false). Ends
 * resolve with the server's geocoder settings (PORTOLAN_GEOCODER); routes are planned in this
 * process on the build of --build-dir, else PORTOLAN_BUILD_DIR or data/build. Exit 2: invalid
 * input, the flag named; exit 1: no answer (no_route, location_not_found, ...), its code named.
 */
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { buildDirFrom } from "../../common/build-dir.ts";
import { DistanceEngine, type DistanceEngineConfig } from "../../engine/distance/engine.ts";
import {
  BOOLEAN_PARAMETERS,
  type LocationsQuery,
  type MultimodalQuery,
  parseLocationsQuery,
  parseMultimodalQuery,
  parseRouteQuery,
  type RouteQuery,
} from "../../engine/distance/requests.ts";
import { EngineError } from "../../engine/errors.ts";
import { geocoderConfig } from "../../engine/locations/config.ts";
import { roadConfig } from "../../engine/road/config.ts";
import { LOCATIONS_QUERY, MULTIMODAL_QUERY, ROUTE_QUERY } from "../distance/schemas.ts";
import { type Cli, CommandFailed, UsageError } from "./context.ts";
import { locationLines, type RouteData, routeSummary } from "./distance-summary.ts";

interface QuerySchema {
  properties: Record<string, { description?: string }>;
  required?: string[];
}

type Query = Record<string, string>;

/** A question: its HTTP query's schema, the engine call after the HTTP parsing, the short answer. */
interface Question {
  schema: QuerySchema;
  ask(engine: DistanceEngine, query: Query): Promise<string>;
  lines(data: unknown): string[];
}

const QUESTIONS = {
  route: {
    schema: ROUTE_QUERY,
    ask: (engine, q) => engine.route(parseRouteQuery(q as unknown as RouteQuery)),
    lines: (data) => routeSummary(data as RouteData),
  },
  multimodal: {
    schema: MULTIMODAL_QUERY,
    ask: (engine, q) => engine.multimodal(parseMultimodalQuery(q as unknown as MultimodalQuery)),
    lines: (data) => routeSummary(data as RouteData),
  },
  locations: {
    schema: LOCATIONS_QUERY,
    ask: async (engine, q) =>
      JSON.stringify(await engine.locations(parseLocationsQuery(q as unknown as LocationsQuery))),
    lines: (data) => locationLines(data as Parameters<typeof locationLines>[0]),
  },
} satisfies Record<string, Question>;

const flagOf = (parameter: string) => `--${parameter.replaceAll("_", "-")}`;

/** One option per query parameter, in the schema's order; returns each option's parameter. */
function queryOptions(command: Command, schema: QuerySchema): Map<Option, string> {
  const options = new Map<Option, string>();
  for (const [name, property] of Object.entries(schema.properties)) {
    const yesNo = (BOOLEAN_PARAMETERS as readonly string[]).includes(name);
    const required = schema.required?.includes(name) ? " (required)" : "";
    const option = new Option(
      `${flagOf(name)} ${yesNo ? "[true|false]" : `<${name}>`}`,
      `${property.description ?? ""}${required}`,
    );
    command.addOption(option);
    options.set(option, name);
  }
  return options;
}

/** The query the flags spell, as HTTP would receive it; a missing required parameter is refused. */
function queryOf(command: Command, options: Map<Option, string>, schema: QuerySchema): Query {
  const query: Query = {};
  for (const [option, name] of options) {
    const value = command.getOptionValue(option.attributeName()) as string | true | undefined;
    if (value !== undefined) query[name] = value === true ? "true" : value;
  }
  for (const name of schema.required ?? [])
    if (query[name] === undefined) throw new UsageError(`${flagOf(name)} is required`);
  return query;
}

/** The engine as the server configures it, planning on this thread; no answer kept. */
function engineOf(buildDir: string | undefined): DistanceEngine {
  let config: DistanceEngineConfig;
  try {
    config = {
      buildDir: resolve(buildDir ?? buildDirFrom()),
      routes: { workers: 0, queue: 0 },
      road: roadConfig(process.env),
      geocoder: geocoderConfig(process.env),
      routeCacheEntries: 0,
    };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return new DistanceEngine(config);
}

/** The flag whose parameter the message names first, among those given. */
function flagNamed(message: string, given: string[]): string | null {
  let first: { at: number; name: string } | null = null;
  for (const name of given) {
    const at = message.search(new RegExp(`\\b${name}\\b`));
    if (at >= 0 && (first === null || at < first.at)) first = { at, name };
  }
  return first && flagOf(first.name);
}

/** An engine failure as the CLI's: invalid input exits 2 naming its flag, anything else 1. */
function failure(err: unknown, query: Query): Error {
  if (!(err instanceof EngineError))
    return new CommandFailed((err as Error).message ?? String(err), { cause: err });
  if (err.code !== "invalid_request") return new CommandFailed(`${err.code}: ${err.message}`);
  const flag = flagNamed(err.message, Object.keys(query));
  return new UsageError(flag ? `${flag}: ${err.message}` : err.message);
}

/** Makes `command` ask `kind`'s question with the flags of its HTTP query. */
export function distanceQuestion(command: Command, cli: Cli, kind: keyof typeof QUESTIONS): Command {
  const question: Question = QUESTIONS[kind];
  const options = queryOptions(command, question.schema);
  return command
    .option("--json", "the whole answer's data, as the HTTP API's data")
    .option("--build-dir <dir>", "the build artifacts (default PORTOLAN_BUILD_DIR or data/build)")
    .action(async (o: { json?: boolean; buildDir?: string }) => {
      const query = queryOf(command, options, question.schema);
      const engine = engineOf(o.buildDir);
      let json: string;
      try {
        json = await question.ask(engine, query);
      } catch (err) {
        throw failure(err, query);
      }
      if (o.json) cli.out(json);
      else for (const line of question.lines(JSON.parse(json))) cli.out(line);
    });
}

export function distanceCommands(program: Command, cli: Cli): void {
  distanceQuestion(
    program
      .command("multimodal")
      .description("a door-to-door route, as GET /v1/distance/multimodal: each flag is its query parameter"),
    cli,
    "multimodal",
  );
  distanceQuestion(
    program
      .command("locations")
      .description("ports, airports, countries and places matching --q, as GET /v1/distance/locations"),
    cli,
    "locations",
  );
}
