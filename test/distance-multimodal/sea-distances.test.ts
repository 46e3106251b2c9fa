/**
 * The per-thread sea table of the chain rules (engine/multimodal/sea-distances.ts) on the real
 * build: the binding's many-to-many answers exactly what one one-to-many search per source does,
 * and a filled table answers the main ports' pairs and the river gateways' distances as the rows
 * searched on demand do, without searching.
 */
import { describe, expect, test } from "bun:test";
import { type Place, settingsOf } from "../../engine/multimodal/options.ts";
import { SeaDistances } from "../../engine/multimodal/sea-distances.ts";
import { gatewaySeaPoint } from "../../engine/multimodal/sea-river.ts";
import { RiverPlanner } from "../../engine/river/planner.ts";
import { DEFAULT_MASK } from "../../engine/sea/policy.ts";
import { STATUS } from "../../router-wasm/binding/router.ts";
import { BUILD_DIR, mainPorts, seaRouter } from "../distance-sea/fixture.ts";

const sea = await seaRouter();
const ports: Place[] = mainPorts();
const gateways = (await RiverPlanner.load(BUILD_DIR)).gateways.map(gatewaySeaPoint);
const SUEZ_CLOSED = settingsOf({ from: ports[0]!, to: ports[1]!, avoid: ["suez"] }).closedMask;

describe("many-to-many", () => {
  test("each row is the source's one-to-many answer, points that do not snap NaN", () => {
    const off = { lat: Number.NaN, lng: 0 };
    const sources = [ports[0]!, off, ports[17]!, gateways[3]!];
    const targets = [...ports.slice(0, 40), off, ...gateways.slice(0, 40)];
    for (const mask of [DEFAULT_MASK, SUEZ_CLOSED]) {
      const table = sea.wasm.manyToMany(sea.handle, sources, targets, mask);
      expect(table.status).toBe(STATUS.found);
      expect(table.metres.length).toBe(sources.length * targets.length);
      sources.forEach((s, i) => {
        const row = table.metres.subarray(i * targets.length, (i + 1) * targets.length);
        if (s === off) expect([...row].every(Number.isNaN)).toBe(true);
        else expect([...row]).toEqual([...sea.oneToMany(s, targets, mask).metres]);
      });
    }
  });

  test("no sources or no targets: an empty table", () => {
    expect(sea.wasm.manyToMany(sea.handle, [], ports, DEFAULT_MASK).metres.length).toBe(0);
    expect(sea.wasm.manyToMany(sea.handle, ports, [], DEFAULT_MASK).metres.length).toBe(0);
  });
});

describe("the filled table", () => {
  const filled = new SeaDistances(sea, ports, gateways).fill(DEFAULT_MASK);
  const onDemand = new SeaDistances(sea, ports);
  const cases: Array<[string, Place, Place]> = [
    ["port to port", ports[0]!, ports[1]!],
    ["port to port, far", ports[5]!, ports[80]!],
    ["port to a gateway", ports[10]!, gateways[0]!],
    ["port to another gateway", ports[60]!, gateways[200]!],
  ];

  test.each(cases)("%s: the on-demand rows' metres, no search", (_, a, b) => {
    const searches = filled.searches;
    const want = onDemand.metres(a, b, DEFAULT_MASK);
    expect(Number.isFinite(want)).toBe(true);
    // Port pairs come from the same search; a gateway's is searched from the port, not the
    // gateway: the same sum in another order.
    expect(Math.abs(filled.metres(a, b, DEFAULT_MASK) - want)).toBeLessThan(1e-6);
    expect(filled.searches).toBe(searches);
  });

  test("one search per main port fills it; other closures search their rows on demand", () => {
    expect(new SeaDistances(sea, ports.slice(0, 3), gateways).fill(DEFAULT_MASK).searches).toBe(3);
    const searches = filled.searches;
    const suez = filled.metres(ports[0]!, ports[1]!, SUEZ_CLOSED);
    expect(filled.searches).toBe(searches + 1);
    expect(suez).toBe(onDemand.metres(ports[0]!, ports[1]!, SUEZ_CLOSED));
  });
});
