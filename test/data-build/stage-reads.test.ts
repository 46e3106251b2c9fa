/**
 * The real stage registry's artifact reads: which stages read which other stage's outputs, and the
 * staleness they cause, judged by the pipeline's own planning (no stage runs). The build directory
 * is a temp one with placeholder outputs and a small sea.graph container.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadManifest } from "../../data-build/manifest.ts";
import { buildStatePath, checkReadOrder, planStages, producerOf } from "../../data-build/stage-plan.ts";
import { registry } from "../../data-build/stages/index.ts";
import { encodeArtifact, restampBuildId } from "../../formats/container.ts";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";

const outDir = mkdtempSync(join(tmpdir(), "portolan-stage-reads-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const readsOf = (name: string) => registry.find((r) => r.stage.name === name)!.stage.reads ?? [];

test("river-graph reads sea-graph's artifact, road-graph road-network's, sea-hierarchy the sea graph and router", () => {
  expect(readsOf("river-graph")).toEqual(["sea.graph"]);
  expect(producerOf(registry, "sea.graph")?.name).toBe("sea-graph");
  expect(readsOf("road-graph")).toEqual(["road-network.bin"]);
  expect(producerOf(registry, "road-network.bin")?.name).toBe("road-network");
  expect(readsOf("sea-hierarchy")).toEqual(["router.wasm", "sea.graph"]);
  // Every read comes from an earlier stage or from outside the stages (router.wasm).
  expect(() => checkReadOrder(registry)).not.toThrow();
});

test("a changed sea.graph marks its readers stale and nothing else; a new build id alone marks none", () => {
  const seaGraph = join(outDir, "sea.graph");
  const writeSea = (payload: number[], buildId: string) =>
    writeFileSync(
      seaGraph,
      encodeArtifact("sea-graph", GRAPH_FORMAT_VERSION, buildId, [
        { name: "nodes", bytes: Uint8Array.from(payload) },
      ]),
    );
  for (const { stage } of registry)
    for (const o of stage.outputs) writeFileSync(join(outDir, o), "placeholder");
  writeFileSync(join(outDir, "router.wasm"), "placeholder");
  writeSea([1, 2, 3, 4, 5, 6, 7, 8], "build-1");
  const plan = () => planStages({ selected: registry, manifest: loadManifest(), outDir });
  const stale = () =>
    plan()
      .filter((p) => !p.fresh)
      .map((p) => p.r.stage.name);

  // The state a build leaves: every stage's fingerprint as its outputs were written.
  const built = Object.fromEntries(plan().map((p) => [p.r.stage.name, { fingerprint: p.fingerprint }]));
  writeFileSync(buildStatePath(outDir), JSON.stringify({ buildId: "build-1", stages: built }));
  expect(stale()).toEqual([]);

  const bytes = new Uint8Array(readFileSync(seaGraph));
  expect(restampBuildId(bytes, "build-2")).toBe(true);
  writeFileSync(seaGraph, bytes);
  expect(stale()).toEqual([]);

  writeSea([1, 2, 3, 4, 5, 6, 7, 9], "build-2");
  expect(stale()).toEqual(["sea-hierarchy", "river-graph"]);
});
