/**
 * The client's generated types and what compiles against them. The committed
 * clients/typescript/src/generated files are what the generator writes from today's documents
 * (so a route whose document changed fails here until they are regenerated); and with the
 * client's own TypeScript 5, in one run: a small program reading typed fields, whose
 * @ts-expect-error lines fail once a wrong field, path or value becomes valid; a file with one
 * wrong field, which must be the one error reported; and the README's TypeScript examples.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GENERATED_DIR, generatedSources } from "../../clients/typescript/scripts/generate.ts";

const root = join(import.meta.dir, "../..");
const client = join(root, "clients/typescript");
const dir = mkdtempSync(join(tmpdir(), "portolan-client-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the committed generated types are what the generator writes from the documents now", async () => {
  const fresh = await generatedSources();
  for (const [product, text] of Object.entries(fresh)) {
    const committed = readFileSync(join(GENERATED_DIR, `${product}.ts`), "utf8");
    // Regenerate with: npx bun clients/typescript/scripts/generate.ts
    expect(committed === text, `src/generated/${product}.ts is current`).toBe(true);
  }
}, 60_000);

const PROGRAM = `import { createOceanClient, createRatesClient, unwrap, type ocean } from "@portolan/client";

const client = createOceanClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "oc_x" });
export async function read(id: string): Promise<string> {
  const { data: record } = unwrap(await client.GET("/v1/containers/{id}", { params: { path: { id } } }));
  const events: ocean.components["schemas"]["MilestoneEvent"][] = record.events;
  console.log(events.length);
  // @ts-expect-error a lookup record has no container_no
  console.log(record.container_no);
  // @ts-expect-error no such path
  await client.GET("/v1/containerz");
  // @ts-expect-error identifier_type is container_id, bill_of_lading or booking
  await client.POST("/v1/containers", { body: { identifier: "MRKU0158387", identifier_type: "box" } });
  // @ts-expect-error the compat surface needs api_key
  await client.GET("/compat/vendor/tracking", { params: { query: { number: "MRKU0158387" } } });
  // @ts-expect-error a rate search needs origin and destination
  await createRatesClient({ baseUrl: "" }).GET("/v1/rates/search", { params: { query: { mode: "OCEAN_FCL" } } });
  return record.container_number ?? record.identifier;
}
`;

const WRONG = `import { createAirClient, unwrap } from "@portolan/client";

const air = createAirClient({ baseUrl: "http://127.0.0.1:8081" });
const { data } = unwrap(await air.GET("/public/v1/awb-prefixes/{reference}", { params: { path: { reference: "160" } } }));
console.log(data.airline_code);
`;

/** The \`\`\`ts blocks of a Markdown text from the heading \`from\` to the next heading of its level. */
function tsBlocks(markdown: string, from: RegExp): string[] {
  const start = markdown.search(from);
  const rest = markdown.slice(start + 1);
  const level = /^#+/.exec(markdown.slice(start))![0];
  const end = rest.search(new RegExp(`\\n${level} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/\n```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
}

function compile(files: Record<string, string>): { code: number; out: string } {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const config = {
    extends: join(client, "tsconfig.json"),
    compilerOptions: {
      // Bun.serve and process.env in the README's examples.
      types: ["bun"],
      typeRoots: [join(root, "node_modules/@types")],
      paths: { "@portolan/client": [join(client, "src/index.ts")] },
    },
    include: Object.keys(files).map((name) => join(dir, name)),
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
  const r = Bun.spawnSync([
    join(client, "node_modules/.bin/tsc"),
    "--noEmit",
    "-p",
    join(dir, "tsconfig.json"),
  ]);
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

test("TypeScript 5 compiles the README's examples and a program on the generated types; a wrong field is the one error", () => {
  const readme = tsBlocks(readFileSync(join(root, "README.md"), "utf8"), /^## Call it from code$/m);
  const own = tsBlocks(readFileSync(join(client, "README.md"), "utf8"), /^# @portolan\/client$/m);
  expect(readme.length).toBe(7);
  expect(own.length).toBe(1);
  const examples = Object.fromEntries(
    [...readme, ...own].map((text, i) => [`readme-${i}.ts`, `${text}\nexport {};\n`]),
  );
  const { code, out } = compile({ "program.ts": PROGRAM, "wrong.ts": WRONG, ...examples });
  const errors = out.split("\n").filter((line) => /error TS\d+/.test(line));
  expect(errors).toEqual([
    expect.stringMatching(/wrong\.ts\(5,\d+\): error TS\d+: Property 'airline_code' does not exist/),
  ]);
  expect(code).not.toBe(0);
}, 120_000);
