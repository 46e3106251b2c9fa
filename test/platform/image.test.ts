/**
 * The Dockerfile and compose.yaml, checked without a container engine (none runs on the machines
 * the suite runs on): the build stage runs the project's own build with the same commands and
 * environment, the runtime stage carries every file the server and the CLI import, and every
 * compose service runs a role the server knows against services compose defines.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROLES } from "../../api/config.ts";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { ROOT } from "./source-files.ts";

type Instruction = { op: string; args: string };
type Stage = { name: string; base: string; steps: Instruction[] };

/** Dockerfile stages: continuation lines joined, comments and parser directives dropped. */
function stagesOf(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    if (op!.toUpperCase() === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ base: m[1]!, name: m[2] ?? String(stages.length), steps: [] });
    } else stages.at(-1)!.steps.push({ op: op!.toUpperCase(), args });
  }
  return stages;
}

/** COPY's options, sources and destination. */
function copyOf(args: string): { from?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length);
  const paths = words.filter((w) => !w.startsWith("--"));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** ENV's assignments (the KEY=value form). */
function envOf(args: string): Record<string, string> {
  return Object.fromEntries([...args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
}

const dockerfile = stagesOf(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const stage = (name: string) => dockerfile.find((s) => s.name === name)!;
const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "");

/** Every repository file `entry` reaches through its imports (the way Bun resolves them). */
function importClosure(entries: string[]): Set<string> {
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith(".ts")) return;
    for (const { path } of transpiler.scanImports(readFileSync(join(ROOT, file), "utf8"))) {
      if (!path.startsWith(".")) continue;
      visit(relative(ROOT, resolve(ROOT, dirname(file), path)));
    }
  };
  for (const entry of entries) visit(entry);
  return seen;
}

describe("Dockerfile", () => {
  test("three stages: build, deps, and a slim runtime that starts every product", () => {
    expect(dockerfile.map((s) => s.name)).toEqual(["build", "deps", "runtime"]);
    expect(stage("runtime").base).toMatch(/-slim$/);
    const cmd = stage("runtime").steps.find((s) => s.op === "CMD")!;
    const [bun, entry] = JSON.parse(cmd.args) as string[];
    expect(bun).toBe("./node_modules/.bin/bun");
    expect(existsSync(join(ROOT, entry!))).toBe(true);
  });

  test("the build stage installs the Debian packages scripts/install.sh installs", () => {
    const install = readFileSync(join(ROOT, "scripts/install.sh"), "utf8");
    const wanted = /APT_PACKAGES=\(([^)]*)\)/
      .exec(install)![1]!
      .split(/\s+/)
      .filter((p) => /^[a-z]/.test(p));
    const apt = stage("build").steps.find((s) => s.op === "RUN" && s.args.includes("apt-get install"))!;
    const named = apt.args.split("apt-get install")[1]!.split("&&")[0]!.split(/\s+/);
    expect(wanted.length).toBeGreaterThan(0);
    for (const pkg of wanted) expect(named).toContain(pkg);
  });

  test("every COPY from the context names files the repository has and .dockerignore keeps", () => {
    const plain = dockerfile.flatMap((s) => s.steps.filter((i) => i.op === "COPY" && !copyOf(i.args).from));
    expect(plain.length).toBeGreaterThan(3);
    for (const step of plain)
      for (const src of copyOf(step.args).sources) {
        expect(existsSync(join(ROOT, src))).toBe(true);
        expect(ignored.filter((pattern) => src === pattern || src.startsWith(`${pattern}/`))).toEqual([]);
      }
  });

  test("COPY --from names an earlier stage or the sources context", () => {
    dockerfile.forEach((s, i) => {
      const earlier = dockerfile.slice(0, i).map((e) => e.name);
      for (const step of s.steps.filter((x) => x.op === "COPY" && copyOf(x.args).from))
        expect([...earlier, "sources"]).toContain(copyOf(step.args).from!);
    });
  });

  test("the runtime carries every file the server and the CLI import", () => {
    const copied = stage("runtime")
      .steps.filter((s) => s.op === "COPY" && !copyOf(s.args).from)
      .flatMap((s) => copyOf(s.args).sources);
    const closure = [...importClosure(["api/main.ts", "api/cli/main.ts"])];
    expect(closure.length).toBeGreaterThan(100);
    const missing = closure.filter((f) => !copied.some((c) => f === c || f.startsWith(`${c}/`)));
    expect(missing).toEqual([]);
  });

  test("the build stage's own build runs here with its commands and environment, producing what the runtime copies", () => {
    const build = stage("build");
    const env = Object.assign({}, ...build.steps.filter((s) => s.op === "ENV").map((s) => envOf(s.args)));
    expect(Object.keys(env).join()).toBe("PORTOLAN_SOURCES");
    // The image reads the sources at /sources; this checkout reads them where the suite does.
    const sources = sourcesDirFrom();
    const scripts = build.steps.filter((s) => s.op === "RUN" && s.args.startsWith("bash scripts/"));
    expect(scripts.map((s) => s.args)).toEqual(["bash scripts/build.sh"]);
    for (const step of scripts) {
      const run = Bun.spawnSync(["bash", "-c", step.args], {
        cwd: ROOT,
        env: { ...process.env, PORTOLAN_SOURCES: sources },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(run.exitCode, run.stderr.toString().slice(-2000)).toBe(0);
    }
    const fromBuild = stage("runtime").steps.filter(
      (s) => s.op === "COPY" && copyOf(s.args).from === "build",
    );
    expect(fromBuild.length).toBeGreaterThan(0);
    for (const step of fromBuild)
      for (const src of copyOf(step.args).sources) {
        const path = join(ROOT, relative("/app", src));
        expect(existsSync(path)).toBe(true);
        if (src.endsWith("data/build")) expect(existsSync(join(path, "manifest.json"))).toBe(true);
      }
  }, 600_000);
});

describe("compose.yaml", () => {
  const compose = Bun.YAML.parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
    services: Record<
      string,
      {
        image?: string;
        build?: { context: string };
        environment?: Record<string, string>;
        depends_on?: string[];
      }
    >;
  };
  const services = Object.entries(compose.services);
  const portolan = services.filter(([, s]) => s.image === "portolan");

  test("PostgreSQL and Redis come from their official images", () => {
    expect(compose.services.postgres?.image).toMatch(/^postgres:\d+$/);
    expect(compose.services.redis?.image).toMatch(/^redis:\d+$/);
  });

  test("every Portolan service builds this Dockerfile and runs roles the server knows", () => {
    expect(portolan.map(([name]) => name).sort()).toEqual(["ais", "api-1", "api-2", "dispatcher", "poller"]);
    const roles = new Set<string>();
    for (const [, s] of portolan) {
      expect(s.build?.context).toBe(".");
      const named = s.environment!.PORTOLAN_ROLES!.split(",");
      for (const role of named) expect(ROLES as readonly string[]).toContain(role);
      for (const role of named) roles.add(role);
    }
    expect([...roles].sort()).toEqual([...ROLES].sort());
  });

  test("each service depends on services compose defines, and the database URL names one", () => {
    for (const [, s] of portolan) {
      for (const dep of s.depends_on ?? []) expect(compose.services[dep]).toBeDefined();
      const host = new URL(s.environment!.PORTOLAN_DB!).hostname;
      expect(compose.services[host]?.image).toMatch(/^postgres:/);
      expect(compose.services[new URL(s.environment!.REDIS_URL!).hostname]?.image).toMatch(/^redis:/);
    }
  });
});
