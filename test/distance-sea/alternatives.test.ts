/**
 * The passages worth closing for sea alternatives (policy.ts alternativeClosures): the table of
 * runs it joins, and, on the real sea graph, the claim it rests on: for a route through both
 * ways out of an enclosed sea, closing any passage of the run gives the same route.
 */
import { describe, expect, test } from "bun:test";
import {
  alternativeLabel,
  corridorOf,
  nextCorridorClosure,
  pickAlternatives,
} from "../../engine/sea/alternatives.ts";
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

describe("corridors (alternatives.ts)", () => {
  const found = (ids: GateId[], metres: number, closed = 0, avoided = 0) => ({
    gates: codes(ids),
    metres,
    closed,
    avoided,
  });
  const name = (g: number) => GATE_IDS[g - 1]!;
  const suezRoute = codes(["malacca", "babelmandeb", "suez", "gibraltar", "dover"]);

  test("corridorOf keeps the passages that choose the way between oceans", () => {
    expect(corridorOf(suezRoute)).toBe("suez");
    expect(corridorOf(codes(["dover", "good_hope"]))).toBe("good_hope");
    expect(corridorOf(codes(["dover"]))).toBe("");
  });

  test("each new corridor comes before a variant of one already shown, then all by length", () => {
    const malacca = found(["babelmandeb", "suez", "gibraltar", "dover"], 11_000, 0, code("malacca"));
    const dover = found(["malacca", "babelmandeb", "suez", "gibraltar"], 11_300, 0, code("dover"));
    const panama = found(["panama", "dover"], 13_500, 0, code("babelmandeb"));
    const cape = found(["good_hope", "dover"], 13_900);
    const picked = pickAlternatives(suezRoute, [malacca, dover, panama, cape], 3);
    expect(picked).toEqual([malacca, panama, cape]);
    expect(picked.map((f) => alternativeLabel(suezRoute, f, name))).toEqual([
      "Avoiding malacca",
      "Via panama",
      "Via good_hope",
    ]);
  });

  test("one corridor further: the shortest route that left the main corridor, with its corridor closed too", () => {
    const panama = found(["panama", "dover"], 13_500, passageBit("babelmandeb"), code("babelmandeb"));
    const dover = found(["malacca", "suez"], 11_300, passageBit("dover"), code("dover"));
    expect(nextCorridorClosure(suezRoute, [dover, panama])).toBe(
      (passageBit("babelmandeb") | passageBit("panama")) >>> 0,
    );
    expect(nextCorridorClosure(suezRoute, [dover])).toBeNull();
  });
});

test("Shanghai to Rotterdam avoiding Suez: the Cape is among the alternatives, each labelled by its corridor", async () => {
  const router = await seaRouter();
  const port = (locode: string) => mainPorts().find((p) => p.locode === locode)!;
  const [sha, rtm] = [port("CNSHG"), port("NLRTM")];
  const plan = router.plan({ from: sha, to: rtm, avoid: ["suez"], alternatives: true });
  const passages = (r: { passages: Array<{ id: string }> }) => r.passages.map((x) => x.id);
  expect(passages(plan.route)).toContain("panama");
  const cape = plan.alternatives.find((a) => passages(a).includes("good_hope"));
  expect(cape?.label).toBe("Via Cape of Good Hope");
  const byDefault = router.plan({ from: sha, to: rtm, alternatives: true });
  expect(byDefault.alternatives.map((a) => a.label)).toEqual(
    expect.arrayContaining(["Via Panama Canal", "Via Cape of Good Hope"]),
  );
});
