/**
 * The router as a library: several graphs per WASM instance by handle, one-to-many
 * against repeated one-to-one on real ports, payload version 2 checks (a v1 artifact and a
 * landmark table of another graph are refused with the rebuild hint), landmarks from the build.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MASK } from "../../engine/sea/policy.ts";
import { SeaRouter } from "../../engine/sea/router.ts";
import { decodeArtifact, encodeArtifact } from "../../formats/container.ts";
import { GRAPH_FORMAT_VERSION, STATUS, WasmRouter } from "../../router-wasm/binding/router.ts";
import { BUILD_DIR, mainPorts, seaRouter } from "./fixture.ts";

const r = await seaRouter();
const graphBytes = () => new Uint8Array(readFileSync(join(BUILD_DIR, "sea.graph")));
const wasmBytes = () => readFileSync(join(BUILD_DIR, "router.wasm"));

/** The sea.graph sections re-encoded, some replaced, under another payload version if asked. */
function reencode(replace: Record<string, Uint8Array>, version = GRAPH_FORMAT_VERSION): Uint8Array {
  const a = decodeArtifact(graphBytes(), { kind: "sea-graph", formatVersion: GRAPH_FORMAT_VERSION });
  const sections = [...a.sections].map(([name, bytes]) => ({ name, bytes: replace[name] ?? bytes }));
  return encodeArtifact("sea-graph", version, a.buildId, sections);
}

describe("one-to-many", () => {
  test("equals repeated one-to-one on real port pairs, with closures", () => {
    const ports = mainPorts();
    const targets = ports.slice(0, 60);
    for (const [source, closed] of [
      [ports[0]!, DEFAULT_MASK],
      [ports[17]!, DEFAULT_MASK | 1], // Suez closed
      [ports[42]!, DEFAULT_MASK | 2 | 128], // Panama and Bab-el-Mandeb closed
    ] as const) {
      const many = r.oneToMany(source, targets, closed);
      expect(many.status).toBe(STATUS.found);
      targets.forEach((t, i) => {
        const one = r.routeRaw(source, t, closed, false);
        if (one.status === STATUS.found) expect(Math.abs(many.metres[i]! - one.metres)).toBeLessThan(1e-6);
        else expect(many.metres[i]).toBe(Infinity);
        expect(many.cost[i]).toBe(many.metres[i]!);
      });
    }
  });

  test("unreachable, not snapped and the binding's plain form", () => {
    const from = { lat: 51.9, lng: 4.4667 };
    const metres = r.wasm.oneToMany(r.handle, from, [from, { lat: Number.NaN, lng: 0 }], DEFAULT_MASK);
    expect(metres[0]).toBe(0);
    expect(metres[1]).toBeNaN();
    expect(r.oneToMany(from, []).metres.length).toBe(0);
  });
});

describe("several graphs in one instance", () => {
  test("two graphs by handle answer independently; unload frees one", async () => {
    const wasm = await WasmRouter.instantiate(wasmBytes());
    const a = await SeaRouter.load(BUILD_DIR, wasm);
    const b = await SeaRouter.load(BUILD_DIR, wasm);
    expect(a.handle).not.toBe(b.handle);
    expect(a.wasm).toBe(b.wasm);
    const p = { from: { lat: 51.9, lng: 4.4667 }, to: { lat: 1.2667, lng: 103.8333 } };
    const want = r.plan(p);
    expect(a.plan(p)).toEqual(want);
    wasm.unload(a.handle);
    expect(b.plan(p)).toEqual(want);
    expect(wasm.route(a.handle, 51.9, 4.4667, 1.2667, 103.8333, DEFAULT_MASK, 0, false).status).toBe(
      STATUS.notLoaded,
    );
    expect(() => wasm.unload(a.handle)).toThrow("no graph loaded");
  });

  test("time objective on the sea graph: no speed section, so time = metres / default speed", () => {
    const g = r.wasm.graph(r.handle);
    const t = r.wasm.route(r.handle, 51.9, 4.4667, 1.2667, 103.8333, DEFAULT_MASK, 0, false, {
      kind: "time",
      defaultSpeedKmh: 25.928,
    });
    const d = r.routeRaw({ lat: 51.9, lng: 4.4667 }, { lat: 1.2667, lng: 103.8333 }, DEFAULT_MASK, false);
    expect(g.sections & 1).toBe(0);
    expect(Math.abs(t.metres - d.metres)).toBeLessThan(1e-3);
    expect(Math.abs(t.cost - d.metres / (25.928 / 3.6))).toBeLessThan(1e-3);
    const bad = r.wasm.route(r.handle, 51.9, 4.4667, 1.2667, 103.8333, DEFAULT_MASK, 0, false, {
      kind: "time",
      defaultSpeedKmh: 0,
    });
    expect(bad.status).toBe(STATUS.badQuery);
  });
});

describe("graph payload version 2", () => {
  test("landmarks come from the build, computed with the default closures", () => {
    const g = r.wasm.graph(r.handle);
    expect(g.landmarks.count).toBe(24);
    expect(g.landmarks.baseClosed).toBe(DEFAULT_MASK);
    expect(g.sections & (1 << 4)).not.toBe(0);
  });

  test("refuses a v1 artifact and landmarks of another graph with the rebuild hint", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sea-v2-"));
    try {
      await writeFile(join(dir, "router.wasm"), wasmBytes());
      await writeFile(join(dir, "sea.graph"), reencode({}, 1));
      expect(SeaRouter.load(dir)).rejects.toThrow(
        /format version 1, this build reads version 2.*npm run build/,
      );
      // Same landmarks, one edge length changed: the table no longer belongs to this graph.
      const a = decodeArtifact(graphBytes(), { kind: "sea-graph", formatVersion: GRAPH_FORMAT_VERSION });
      const len = new Float64Array(a.sections.get("edge_len")!.slice().buffer);
      len[0] = len[0]! + 1;
      await writeFile(join(dir, "sea.graph"), reencode({ edge_len: new Uint8Array(len.buffer) }));
      expect(SeaRouter.load(dir)).rejects.toThrow(/landmarks were computed for another graph.*npm run build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
