/**
 * The passages worth closing for sea alternatives (policy.ts alternativeClosures): the table of
 * runs it joins, and, on the real sea graph, the claim it rests on: for a route through both
 * ways out of an enclosed sea, closing any passage of the run gives the same route.
 */
import { describe, expect, test } from "bun:test";
import {
  alternativeClosures,
  DEFAULT_MASK,
  ENCLOSED_SEAS,
  GATE_IDS,
  type GateId,
  passageBit,
} from "../../engine/sea/policy.ts";
import { STATUS } from "../../router-wasm/binding/router.ts";
import { mainPorts, seaRouter } from "./fixture.ts";

const code = (id: GateId) => GATE_IDS.indexOf(id) + 1;
const codes = (ids: GateId[]) => ids.map(code);

describe("alternativeClosures", () => {
  const cases: Array<[GateId[], GateId[]]> = [
    [[], []],
    [["malacca"], ["malacca"]],
    [
      ["dover", "gibraltar", "suez", "babelmandeb", "malacca"],
      ["dover", "gibraltar", "malacca"],
    ],
    [["suez", "babelmandeb"], ["suez"]],
    [
      ["babelmandeb", "suez", "gibraltar", "dover"],
      ["babelmandeb", "dover"],
    ],
    [["gibraltar", "suez"], ["gibraltar"]],
    // One way out of each sea only: nothing to join.
    [
      ["gibraltar", "panama"],
      ["gibraltar", "panama"],
    ],
    [
      ["babelmandeb", "malacca"],
      ["babelmandeb", "malacca"],
    ],
    [
      ["kiel", "dover", "gibraltar"],
      ["kiel", "dover", "gibraltar"],
    ],
  ];
  test.each(cases)("%p -> %p", (route, closures) => {
    expect(alternativeClosures(codes(route))).toEqual(codes(closures));
  });
});

describe("enclosed seas on the sea graph", () => {
  test("closing any passage of a joined run gives the route closing its first", async () => {
    const router = await seaRouter();
    const ports = mainPorts();
    const joined = new Set(ENCLOSED_SEAS.flatMap((s) => s.exits.map(code)));
    // Every main-port pair whose route crosses an enclosed sea, spread evenly down to ~150 checks.
    const pairs: Array<[number, number, number[]]> = [];
    for (let i = 0; i < ports.length; i++)
      for (let j = i + 1; j < ports.length; j++) {
        const main = router.routeRaw(ports[i]!, ports[j]!, DEFAULT_MASK, false);
        if (main.status !== STATUS.found) continue;
        const dropped = main.gates.filter((g) => !alternativeClosures(main.gates).includes(g));
        if (dropped.length > 0 && main.gates.some((g) => joined.has(g))) pairs.push([i, j, main.gates]);
      }
    expect(pairs.length).toBeGreaterThan(100);
    const step = Math.max(1, Math.floor(pairs.length / 150));
    let checked = 0;
    for (let k = 0; k < pairs.length; k += step) {
      const [i, j, gates] = pairs[k]!;
      const kept = alternativeClosures(gates);
      for (const g of gates) {
        if (kept.includes(g)) continue;
        // The run's first passage: the latest kept one before g in route order.
        const first = kept.filter((x) => gates.indexOf(x) < gates.indexOf(g)).at(-1)!;
        const close = (gate: number) =>
          router.routeRaw(ports[i]!, ports[j]!, DEFAULT_MASK | passageBit(GATE_IDS[gate - 1]!), false);
        const [a, b] = [close(first), close(g)];
        const label = `${ports[i]!.locode}-${ports[j]!.locode} closing ${GATE_IDS[g - 1]} vs ${GATE_IDS[first - 1]}`;
        expect({ label, status: b.status, gates: b.gates, metres: b.metres }).toEqual({
          label,
          status: a.status,
          gates: a.gates,
          metres: a.metres,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);
});
