import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EngineError } from "../../engine/errors.ts";
import { SeaRouter } from "../../engine/sea/router.ts";
import { BUILD_DIR, mainPorts, seaRouter } from "./fixture.ts";

const P = {
  rotterdam: { lat: 51.9, lng: 4.4667, name: "Rotterdam" },
  singapore: { lat: 1.2667, lng: 103.8333, name: "Singapore" },
  shanghai: { lat: 31.2333, lng: 121.4917, name: "Shanghai" },
  losAngeles: { lat: 33.75, lng: -118.2708, name: "Los Angeles" },
  newYork: { lat: 40.7, lng: -74.0167, name: "New York" },
  colombo: { lat: 6.95, lng: 79.85, name: "Colombo" },
  algeciras: { lat: 36.13, lng: -5.44, name: "Algeciras" },
  hamburg: { lat: 53.5459, lng: 9.9666, name: "Hamburg" },
  madrid: { lat: 40.4168, lng: -3.7038, name: "Madrid" },
  jeddah: { lat: 21.48, lng: 39.17, name: "Jeddah" },
};
const r = await seaRouter();
const ids = (ps: Array<{ id: string }>) => ps.map((p) => p.id);

function engineError(fn: () => unknown): EngineError {
  try {
    fn();
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error("expected an EngineError");
}

describe("planSeaRoute", () => {
  test("Rotterdam to Singapore goes via Suez; avoiding Suez goes round the Cape", () => {
    const d = r.plan({ from: P.rotterdam, to: P.singapore, avoid: [] });
    expect(ids(d.route.passages)).toEqual(["dover", "gibraltar", "suez", "babelmandeb", "malacca"]);
    expect(d.route.distance.nm).toBeGreaterThan(8000);
    expect(d.route.distance.nm).toBeLessThan(8700);
    expect(d.route.label).toBe("Direct");
    expect(d.routing_mode).toBe("short");
    expect(d.avoided).toEqual([]);
    const cape = r.plan({ from: P.rotterdam, to: P.singapore, avoid: ["SUEZ"] });
    expect(ids(cape.route.passages)).not.toContain("suez");
    expect(cape.route.distance.nm).toBeGreaterThan(d.route.distance.nm + 2500);
    expect(cape.avoided).toEqual(["suez"]);
  });

  test("safe mode closes Bab-el-Mandeb and with it Suez transits to Asia", () => {
    const d = r.plan({ from: P.rotterdam, to: P.singapore, routingMode: "safe" });
    expect(d.routing_mode).toBe("safe");
    expect(d.avoided).toEqual(["babelmandeb"]);
    expect(ids(d.route.passages)).not.toContain("suez");
    expect(ids(d.route.passages)).not.toContain("babelmandeb");
    // A Red Sea port is still reachable through Suez in safe mode.
    const jeddah = r.plan({ from: P.rotterdam, to: P.jeddah, routingMode: "safe" });
    expect(ids(jeddah.route.passages)).toContain("suez");
  });

  test("alternatives differ by passage set and are ranked by distance", () => {
    const d = r.plan({ from: P.rotterdam, to: P.singapore, alternatives: true });
    expect(d.alternatives.length).toBeGreaterThan(0);
    const sets = [d.route, ...d.alternatives].map((x) => ids(x.passages).sort().join(","));
    expect(new Set(sets).size).toBe(sets.length);
    const dist = d.alternatives.map((a) => a.distance.nm);
    expect(dist).toEqual([...dist].sort((a, b) => a - b));
    expect(d.alternatives.some((a) => !ids(a.passages).includes("suez"))).toBe(true);
    const usa = r.plan({ from: P.newYork, to: P.losAngeles, alternatives: true });
    expect(ids(usa.route.passages)).toEqual(["panama"]);
    expect(usa.alternatives.some((a) => !ids(a.passages).includes("panama"))).toBe(true);
    expect(r.plan({ from: P.newYork, to: P.losAngeles }).alternatives).toEqual([]);
  });

  test("transit follows speed; ECA split adds up", () => {
    const d = r.plan({ from: P.rotterdam, to: P.hamburg, speedKnots: 10 });
    expect(d.route.transit).toEqual({
      speed_knots: 10,
      hours: Math.round(d.route.distance.nm) / 10,
      days: Math.round((d.route.distance.nm / 10 / 24) * 100) / 100,
    });
    expect(d.route.eca.zones[0]!.id).toBe("north_sea");
    expect(d.route.eca.share).toBeGreaterThan(0.9);
    expect(Math.round((d.route.eca.nm + d.route.eca.non_eca_nm) * 10)).toBe(
      Math.round(d.route.distance.nm * 10),
    );
    const pacific = r.plan({ from: P.shanghai, to: P.losAngeles });
    expect(pacific.route.eca.zones.map((z) => z.id)).toEqual(["north_american"]);
    expect(pacific.route.eca.share).toBeLessThan(0.15);
  });

  test("path only when asked, from and to the snapped points", () => {
    expect("path" in r.plan({ from: P.rotterdam, to: P.hamburg }).route).toBe(false);
    const d = r.plan({ from: P.rotterdam, to: P.hamburg, path: true });
    const a = r.snap(P.rotterdam.lat, P.rotterdam.lng)!;
    const b = r.snap(P.hamburg.lat, P.hamburg.lng)!;
    expect(d.route.path![0]).toEqual([Math.round(a.lat * 1e5) / 1e5, Math.round(a.lng * 1e5) / 1e5]);
    expect(d.route.path!.at(-1)).toEqual([Math.round(b.lat * 1e5) / 1e5, Math.round(b.lng * 1e5) / 1e5]);
  });

  test("validation errors", () => {
    const bad = [
      { avoid: ["suez", "atlantis"] },
      { speedKnots: 2.9 },
      { speedKnots: 41 },
      { speedKnots: Number.NaN },
      { routingMode: "fast" },
      { from: { lat: 91, lng: 0 } },
    ];
    for (const extra of bad) {
      const e = engineError(() => r.plan({ from: P.rotterdam, to: P.hamburg, ...extra }));
      expect(e.code).toBe("invalid_request");
    }
    expect(
      engineError(() => r.plan({ from: P.rotterdam, to: P.hamburg, avoid: ["atlantis"] })).message,
    ).toContain("suez");
  });

  test("no route: inland points, closed passages, exhausted budget", () => {
    const inland = engineError(() => r.plan({ from: P.madrid, to: P.rotterdam }));
    expect(inland.code).toBe("no_route");
    expect(inland.message).toContain("Madrid");
    // The Black Sea side of the world is cut off with Gibraltar and Suez closed.
    const closed = engineError(() =>
      r.plan({
        from: { lat: 41.02, lng: 28.99, name: "Istanbul" },
        to: P.rotterdam,
        avoid: ["gibraltar", "suez"],
      }),
    );
    expect(closed.code).toBe("no_route");
    expect(closed.message).toContain("suez, gibraltar closed");
    const budget = engineError(() => r.plan({ from: P.rotterdam, to: P.singapore, maxSettled: 5 }));
    expect(budget.code).toBe("no_route");
    expect(budget.extra).toEqual({ reason: "budget_exhausted" });
  });

  test("major ports snap to water that reaches open sea (Colombo, Algeciras, trans-Pacific)", () => {
    expect(r.snap(P.colombo.lat, P.colombo.lng)!.km).toBeLessThan(10);
    expect(r.snap(P.algeciras.lat, P.algeciras.lng)!.km).toBeLessThan(15);
    const colombo = r.plan({ from: P.colombo, to: P.singapore });
    expect(colombo.route.distance.nm).toBeGreaterThan(1450);
    expect(colombo.route.distance.nm).toBeLessThan(1650);
    const algeciras = r.plan({ from: P.algeciras, to: P.rotterdam });
    expect(algeciras.route.distance.nm).toBeGreaterThan(1300);
    expect(algeciras.route.distance.nm).toBeLessThan(1500);
    const pacific = r.plan({ from: P.shanghai, to: P.losAngeles });
    expect(pacific.route.distance.nm).toBeGreaterThan(5400);
    expect(pacific.route.distance.nm).toBeLessThan(6100);
  });

  test("every main container port reaches Rotterdam and Shanghai", () => {
    for (const port of mainPorts()) {
      for (const hub of [P.rotterdam, P.shanghai]) {
        if (port.name === hub.name) continue;
        const d = r.plan({ from: port, to: hub });
        expect(d.route.distance.nm).toBeGreaterThan(0);
      }
    }
  });
});

describe("SeaRouter.planJson", () => {
  test("is JSON.stringify of plan's answer, byte for byte, with paths written from their points' texts", () => {
    const ports = mainPorts();
    // The same graph without the hierarchy: A* routes, paths written without the shared texts.
    const astar = SeaRouter.fromBytes(r.wasm, new Uint8Array(readFileSync(join(BUILD_DIR, "sea.graph"))));
    try {
      const options = [
        { path: true },
        { path: true, alternatives: true },
        { path: true, avoid: ["suez"], routingMode: "safe", speedKnots: 18, cargoTonnes: 12.5 },
        { path: false, alternatives: true },
        {},
      ];
      let checked = 0;
      for (let i = 0; i < ports.length; i += 3) {
        const pair = {
          from: { ...ports[i]!, kind: "port" },
          to: { ...ports[(i * 31 + 7) % ports.length]!, kind: "port" },
        };
        for (const [k, opts] of options.entries()) {
          const router = k === 1 && i % 2 === 1 ? astar : r;
          const req = { ...pair, ...opts };
          let want: string;
          try {
            want = JSON.stringify(router.plan(req));
          } catch (err) {
            expect(() => router.planJson(req)).toThrow((err as Error).message);
            continue;
          }
          expect(router.planJson(req)).toBe(want);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(150);
      // Points shared by two paths have one text: the second route's JSON is the same all the same.
      const req = { from: P.hamburg, to: P.singapore, path: true, alternatives: true };
      expect(JSON.parse(r.planJson(req))).toEqual(JSON.parse(JSON.stringify(r.plan(req))));
    } finally {
      r.wasm.unload(astar.handle);
    }
  });
});

describe("SeaRouter.load", () => {
  test("refuses corrupt, foreign and missing artifacts with a rebuild hint", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sea-"));
    try {
      const graph = new Uint8Array(readFileSync(join(BUILD_DIR, "sea.graph")));
      await writeFile(join(dir, "router.wasm"), readFileSync(join(BUILD_DIR, "router.wasm")));
      expect(SeaRouter.load(dir)).rejects.toThrow("sea.graph missing");
      const corrupt = graph.slice();
      corrupt[corrupt.length - 3]! ^= 0xff;
      await writeFile(join(dir, "sea.graph"), corrupt);
      expect(SeaRouter.load(dir)).rejects.toThrow(/checksum mismatch.*npm run build/);
      await writeFile(join(dir, "sea.graph"), readFileSync(join(BUILD_DIR, "router.wasm")));
      expect(SeaRouter.load(dir)).rejects.toThrow("not a Portolan artifact");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("exposes the build id for the API's mixed-build check", () => {
    expect(r.buildId.length).toBeGreaterThan(0);
  });
});
