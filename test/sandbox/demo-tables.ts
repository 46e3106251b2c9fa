/** The demo tables as written in README.md and docs/sandbox-carrier.md, for tests to hold them to demo.ts. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_STATES, type DemoScenario } from "../../ingest/sandbox/demo.ts";

const ROOT = join(import.meta.dir, "../..");
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());

/** The table whose header row starts with `first`: header cells and body rows. */
export function tableAfter(text: string, first: string): { header: string[]; rows: string[][] } {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  if (start < 0) throw new Error(`no table starting with "${first}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(cells(line));
  }
  return { header: cells(lines[start]!), rows };
}

export interface ReadmeDemo {
  line: string;
  scenario: DemoScenario;
  reference: string;
}

/** README's "Demo references" table: one row per line, one column per scenario (DEMO_STATES headings). */
export function readmeDemoTable(): ReadmeDemo[] {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const { header, rows } = tableAfter(text.slice(text.indexOf("Demo references")), "line");
  const byHeading = new Map(Object.entries(DEMO_STATES).map(([s, st]) => [st.heading, s as DemoScenario]));
  const scenarios = header.slice(1).map((h) => {
    const s = byHeading.get(h);
    if (!s) throw new Error(`README demo table: column "${h}" is no DEMO_STATES heading`);
    return s;
  });
  return rows.flatMap(([line, ...refs]) =>
    refs.map((reference, i) => ({ line: line!, scenario: scenarios[i]!, reference })),
  );
}

/** docs/sandbox-carrier.md's demo table: carrier, scenario, reference, kind, note. */
export function docsDemoTable(): Array<{
  scac: string;
  scenario: string;
  reference: string;
  kind: string;
  note: string;
}> {
  const text = readFileSync(join(ROOT, "docs/sandbox-carrier.md"), "utf8");
  const { rows } = tableAfter(text.slice(text.indexOf("## Demo references")), "carrier");
  return rows.map(([scac, scenario, reference, kind, note]) => ({
    scac: scac!,
    scenario: scenario!,
    reference: reference!.replace(/`/g, ""),
    kind: kind!,
    note: note!,
  }));
}
