/**
 * The stage runner on a small real source tree: a temp sources dir, a manifest pinning it, and a
 * stage module written to disk (its text is the stage's code version).
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SourceManifest } from "../../data-build/manifest.ts";
import { type RegisteredStage, runPipeline, type Stage } from "../../data-build/pipeline.ts";
import { decodeArtifact, encodeArtifact } from "../../formats/container.ts";

const root = mkdtempSync(join(tmpdir(), "portolan-pipeline-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

let sourcesDir: string;
let outDir: string;
let manifest: SourceManifest;
let runs: Record<string, number>;
let moduleFile: string;

function pin(key: string, text: string, write = true) {
  if (write) {
    mkdirSync(join(sourcesDir, key, ".."), { recursive: true });
    writeFileSync(join(sourcesDir, key), text);
  }
  manifest.files[key] = { url: null, sha256: sha(text), licence: "test", attribution: `test data ${key}` };
}

/** A stage copying the sources it reads into one container artifact. */
function copyStage(name: string, inputs: string[], output: string, reads = inputs): Stage {
  return {
    name,
    inputs,
    outputs: [output],
    async run(ctx) {
      runs[name] = (runs[name] ?? 0) + 1;
      const sections = reads.map((key, i) => ({ name: `s${i}`, bytes: readFileSync(ctx.source(key)) }));
      writeFileSync(join(ctx.outDir, output), encodeArtifact("test", 1, ctx.buildId, sections));
    },
  };
}

let registry: RegisteredStage[];
const run = (extra: Partial<Parameters<typeof runPipeline>[0]> = {}) =>
  runPipeline({ registry, manifest, sourcesDir, outDir, log: () => {}, ...extra });
const buildIdOf = (file: string) =>
  decodeArtifact(new Uint8Array(readFileSync(join(outDir, file))), { kind: "test", formatVersion: 1 })
    .buildId;

beforeEach(() => {
  const dir = mkdtempSync(join(root, "case-"));
  sourcesDir = join(dir, "sources");
  outDir = join(dir, "build");
  manifest = { files: {}, packages: {} };
  runs = {};
  pin("a/one.csv", "x,y\n1,2\n");
  pin("a/two.csv", "x,y\n3,4\n");
  pin("b/three.json", "{}");
  moduleFile = join(dir, "stage.ts");
  writeFileSync(moduleFile, "export const version = 1;\n");
  registry = [
    { stage: copyStage("alpha", ["a/*.csv"], "alpha.bin", ["a/one.csv", "a/two.csv"]), module: moduleFile },
    { stage: copyStage("beta", ["b/three.json"], "beta.bin"), module: moduleFile },
  ];
});

describe("stage runner", () => {
  test("runs every stage, then skips them while nothing changed", async () => {
    const first = await run();
    expect(first.ran).toEqual(["alpha", "beta"]);
    const second = await run();
    expect(second.ran).toEqual([]);
    expect(second.skipped).toEqual(["alpha", "beta"]);
    expect(second.buildId).toBe(first.buildId);
    expect(runs).toEqual({ alpha: 1, beta: 1 });
    const manifestJson = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
    expect(manifestJson.build_id).toBe(first.buildId);
    expect(manifestJson.artifacts.map((a: { file: string }) => a.file)).toEqual(["alpha.bin", "beta.bin"]);
    expect(manifestJson.artifacts[0].bytes).toBeGreaterThan(0);
    expect(manifestJson.artifacts[0].fnv1a64).toMatch(/^[0-9a-f]+$/);
    const attribution = readFileSync(join(outDir, "ATTRIBUTION"), "utf8");
    expect(attribution).toContain("test data a/one.csv");
    expect(attribution).toContain("test data b/three.json");
  });

  test("a changed input reruns its stage; every artifact carries the new build id", async () => {
    const first = await run();
    pin("b/three.json", '{"changed":true}');
    const second = await run();
    expect(second.ran).toEqual(["beta"]);
    expect(second.skipped).toEqual(["alpha"]);
    expect(second.buildId).not.toBe(first.buildId);
    expect(buildIdOf("beta.bin")).toBe(second.buildId);
    // alpha was skipped but restamped, so the API never sees a mix of builds.
    expect(buildIdOf("alpha.bin")).toBe(second.buildId);
  });

  test("a JSON artifact that names its build (river-stretches.json) is restamped too, nothing else in it changed", async () => {
    // alpha also writes a JSON file beside its container, as the river-graph stage does.
    const alpha = registry[0]!.stage;
    const body = ',"stretches":{"EU01":{"kind":"closure","build_id":"inner, kept"}}}\n';
    registry[0] = {
      ...registry[0]!,
      stage: {
        ...alpha,
        outputs: [...alpha.outputs, "alpha.json"],
        async run(ctx) {
          await alpha.run(ctx);
          writeFileSync(join(ctx.outDir, "alpha.json"), `{"build_id":${JSON.stringify(ctx.buildId)}${body}`);
        },
      },
    };
    const first = await run();
    expect(JSON.parse(readFileSync(join(outDir, "alpha.json"), "utf8")).build_id).toBe(first.buildId);
    pin("b/three.json", '{"changed":true}');
    const second = await run();
    expect(second.ran).toEqual(["beta"]);
    expect(readFileSync(join(outDir, "alpha.json"), "utf8")).toBe(`{"build_id":"${second.buildId}"${body}`);
    const listed = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8")).artifacts as Array<{
      file: string;
      bytes: number;
    }>;
    expect(listed.find((a) => a.file === "alpha.json")?.bytes).toBe(
      readFileSync(join(outDir, "alpha.json")).length,
    );
  });

  test("a code change, a missing output or --force reruns", async () => {
    await run();
    writeFileSync(moduleFile, "export const version = 2;\n");
    expect((await run()).ran).toEqual(["alpha", "beta"]);
    rmSync(join(outDir, "beta.bin"));
    expect((await run()).ran).toEqual(["beta"]);
    expect((await run({ force: true, only: ["alpha"] })).ran).toEqual(["alpha"]);
  });

  test("--only runs the named stages; unknown names are refused", async () => {
    expect((await run({ only: ["beta"] })).ran).toEqual(["beta"]);
    expect(existsSync(join(outDir, "alpha.bin"))).toBe(false);
    await expect(run({ only: ["gamma"] })).rejects.toThrow(/unknown stage "gamma"/);
  });

  test("a source whose sha256 does not match its pin is refused, naming the file", async () => {
    writeFileSync(join(sourcesDir, "a/two.csv"), "tampered\n");
    await expect(run()).rejects.toThrow(
      /source a\/two\.csv .* has sha256 [0-9a-f]{64} but data-build\/sources\.json pins/,
    );
    expect(runs).toEqual({});
  });

  test("a stage reading an undeclared source is refused", async () => {
    const sneaky: Stage = {
      name: "sneaky",
      inputs: ["b/three.json"],
      outputs: ["sneaky.bin"],
      async run(ctx) {
        ctx.source("a/one.csv");
      },
    };
    registry = [{ stage: sneaky, module: moduleFile }];
    await expect(run()).rejects.toThrow(/stage sneaky read source a\/one\.csv without declaring it/);
  });

  test("an input missing from the manifest is refused", async () => {
    registry = [{ stage: copyStage("alpha", ["c/unknown.csv"], "alpha.bin"), module: moduleFile }];
    await expect(run()).rejects.toThrow(/input "c\/unknown\.csv" is not listed/);
  });
});

/** A stage copying the sections of the first artifact it reads into its own. */
function readerStage(name: string, reads: string[], output: string): Stage {
  return {
    name,
    inputs: [],
    reads,
    outputs: [output],
    async run(ctx) {
      runs[name] = (runs[name] ?? 0) + 1;
      const read = decodeArtifact(ctx.artifact(reads[0]!), { kind: "test", formatVersion: 1 });
      writeFileSync(
        join(ctx.outDir, output),
        encodeArtifact(
          "test",
          1,
          ctx.buildId,
          [...read.sections].map(([n, b]) => ({ name: n, bytes: b })),
        ),
      );
    },
  };
}

describe("stages reading other stages' artifacts", () => {
  beforeEach(() => {
    registry.push({ stage: readerStage("gamma", ["alpha.bin"], "gamma.bin"), module: moduleFile });
  });

  test("a changed artifact reruns its readers in the same run; a restamped build id alone does not", async () => {
    expect((await run()).ran).toEqual(["alpha", "beta", "gamma"]);
    // beta's change gives the build a new id and restamps alpha.bin: its content is the same.
    pin("b/three.json", '{"changed":true}');
    const second = await run();
    expect(second.ran).toEqual(["beta"]);
    expect(buildIdOf("alpha.bin")).toBe(second.buildId);
    // alpha writes other bytes: gamma, which reads them, reruns after it.
    pin("a/one.csv", "x,y\n5,6\n");
    expect((await run()).ran).toEqual(["alpha", "gamma"]);
    expect(runs).toEqual({ alpha: 2, beta: 2, gamma: 2 });
  });

  test("a reader credits the sources behind what it reads", async () => {
    await run();
    rmSync(join(outDir, "alpha.bin"));
    await run({ only: ["beta"] });
    // alpha.bin is gone: ATTRIBUTION names alpha's sources through gamma.bin, which is made from it.
    expect(readFileSync(join(outDir, "ATTRIBUTION"), "utf8")).toContain("test data a/one.csv");
  });

  test("an artifact read without declaring it, or listed after its reader, is refused", async () => {
    const sneaky: Stage = {
      name: "sneaky",
      inputs: [],
      reads: [],
      outputs: ["sneaky.bin"],
      async run(ctx) {
        ctx.artifact("alpha.bin");
      },
    };
    registry = [registry[0]!, { stage: sneaky, module: moduleFile }];
    await expect(run()).rejects.toThrow(
      /stage sneaky read build output alpha\.bin without declaring it in its reads/,
    );
    registry = [
      registry[0]!,
      { stage: readerStage("gamma", ["beta.bin"], "gamma.bin"), module: moduleFile },
      { stage: copyStage("beta", ["b/three.json"], "beta.bin"), module: moduleFile },
    ];
    await expect(run()).rejects.toThrow(
      /stage gamma reads beta\.bin, which beta writes: list beta before it/,
    );
  });

  test("a missing artifact names the stage that writes it", async () => {
    await expect(run({ only: ["gamma"] })).rejects.toThrow(/alpha\.bin missing: run the alpha stage first/);
  });
});

describe("fetch-sources", () => {
  test("downloads a missing source from the mirror, verifies it, then builds", async () => {
    const body = "x,y\n9,9\n";
    pin("a/fetched.csv", body, false);
    const served: string[] = [];
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req) {
        const path = new URL(req.url).pathname;
        served.push(path);
        return path === "/a/fetched.csv" ? new Response(body) : new Response("no", { status: 404 });
      },
    });
    try {
      const result = await run({ mirror: `http://127.0.0.1:${server.port}/` });
      expect(served).toEqual(["/a/fetched.csv"]);
      expect(readFileSync(join(sourcesDir, "a/fetched.csv"), "utf8")).toBe(body);
      expect(result.ran).toContain("alpha");
      // Present now: no second download.
      await run({ mirror: `http://127.0.0.1:${server.port}/` });
      expect(served).toHaveLength(1);
    } finally {
      server.stop(true);
    }
  });

  test("a download with the wrong content or status is refused and not kept", async () => {
    pin("a/bad.csv", "expected\n", false);
    pin("b/gone.json", "{}", false);
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) =>
        new URL(req.url).pathname === "/a/bad.csv"
          ? new Response("something else\n")
          : new Response("", { status: 404 }),
    });
    try {
      const mirror = `http://127.0.0.1:${server.port}`;
      await expect(run({ mirror })).rejects.toThrow(/source a\/bad\.csv: downloaded file has sha256/);
      expect(existsSync(join(sourcesDir, "a/bad.csv"))).toBe(false);
      registry = [{ stage: copyStage("gone", ["b/gone.json"], "gone.bin"), module: moduleFile }];
      await expect(run({ mirror })).rejects.toThrow(
        /source b\/gone\.json: download from .* failed with HTTP 404/,
      );
    } finally {
      server.stop(true);
    }
  });

  test("a missing source without an upstream URL says so", async () => {
    pin("a/compiled.csv", "facts\n", false);
    await expect(run()).rejects.toThrow(/source a\/compiled\.csv is missing .* no upstream URL/);
  });
});

describe("stages in worker threads (--jobs)", () => {
  /**
   * A stage module as the registry names them: `upper` copies a source, `lower` reads upper's
   * artifact, `apart` reads a source it does not declare; upper logs which thread it runs on.
   */
  function writeStageModule(failing = false) {
    const file = join(outDir, "..", "stages.ts");
    writeFileSync(
      file,
      `import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
export const upper = { name: "upper", inputs: ["a/one.csv"], outputs: ["upper.bin"], async run(ctx) {
  ctx.log(\`upper in the main thread: \${isMainThread}\`);
  writeFileSync(join(ctx.outDir, "upper.bin"), readFileSync(ctx.source("a/one.csv")));
} };
export const lower = { name: "lower", inputs: [], reads: ["upper.bin"], outputs: ["lower.bin"], async run(ctx) {
  ${failing ? 'throw new Error("lower cannot build");' : ""}
  writeFileSync(join(ctx.outDir, "lower.bin"), new TextDecoder().decode(ctx.artifact("upper.bin")).toUpperCase());
} };
export const apart = { name: "apart", inputs: ["b/three.json"], outputs: ["apart.bin"], async run(ctx) {
  ctx.source("a/two.csv");
} };
`,
    );
    return file;
  }

  async function registryOf(file: string): Promise<RegisteredStage[]> {
    const mod = (await import(file)) as Record<string, Stage>;
    return ["upper", "lower", "apart"].map((name) => ({ stage: mod[name]!, module: file }));
  }

  test("each stage runs in a worker thread after the stages it reads; the run reports them in registry order", async () => {
    registry = (await registryOf(writeStageModule())).slice(0, 2);
    const lines: string[] = [];
    const result = await run({ jobs: 2, log: (msg) => lines.push(msg) });
    expect(result.ran).toEqual(["upper", "lower"]);
    expect(readFileSync(join(outDir, "lower.bin"), "utf8")).toBe("X,Y\n1,2\n");
    expect(lines).toContain("upper in the main thread: false");
    expect(lines.findIndex((l) => l.startsWith("lower: running"))).toBeGreaterThan(
      lines.findIndex((l) => l.startsWith("upper: done")),
    );
    expect((await run({ jobs: 2 })).skipped).toEqual(["upper", "lower"]);
  });

  test("a failing or undeclared read in a worker fails the build with the stage's own message", async () => {
    registry = (await registryOf(writeStageModule(true))).slice(0, 2);
    await expect(run({ jobs: 2 })).rejects.toThrow("lower cannot build");
    expect(existsSync(join(outDir, "upper.bin"))).toBe(true);
    registry = [(await registryOf(writeStageModule()))[2]!];
    await expect(run({ jobs: 2 })).rejects.toThrow(
      "stage apart read source a/two.csv without declaring it in its inputs",
    );
  });
});
