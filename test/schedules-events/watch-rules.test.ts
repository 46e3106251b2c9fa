/**
 * The pure rules of cutoff_approaching and reliability_drop (ingest/schedules/): which calls a
 * follow covers, which cut-offs are due at a clock reading and with which lead, when a moved
 * cut-off is told again, a follow's identity, and the reliability hysteresis.
 */
import { describe, expect, test } from "bun:test";
import type { ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { dueCutoffs, renotice } from "../../ingest/schedules/cutoffs.ts";
import { type FollowTarget, followedCalls, followIdentity } from "../../ingest/schedules/follows.ts";
import { transition } from "../../ingest/schedules/reliability-watch.ts";
import type { FollowRow } from "../../storage/follows.ts";
import type { SailingRow } from "../../storage/sailings.ts";

const H = 3_600_000;
const T0 = Date.parse("2026-03-02T00:00:00Z");
const at = (h: number) => new Date(T0 + h * H).toISOString();

/**
 * A tiny service: voyage 01W calls CNSHA -> SGSIN -> NLRTM -> DEHAM, the last under the import
 * voyage only (the turn). Departures at hours 40, 100, 300; each departing call has DCO 72 h, VCO
 * 36 h and FCO 24 h before its departure. `departed` marks calls with an actual departure.
 */
function call(port: string, depH: number | null, opts: { departed?: boolean; exportVoyage?: string } = {}) {
  const c: ScheduleCall = {
    place: { unlocode: port, facility: null, name: port },
    transportCallReference: `${port}-REF`,
    importVoyage: "01W",
    exportVoyage: depH === null ? (opts.exportVoyage ?? "01E") : "01W",
    arrival: { planned: at((depH ?? 400) - 20) },
    departure: depH === null ? {} : { planned: at(depH), ...(opts.departed ? { actual: at(depH) } : {}) },
    cutOffs:
      depH === null
        ? []
        : [
            { code: "DCO", at: at(depH - 72) },
            { code: "VCO", at: at(depH - 36) },
            { code: "FCO", at: at(depH - 24) },
          ],
  };
  return c;
}

function sailing(id: string, calls: ScheduleCall[], over: Partial<SailingRow> = {}): SailingRow {
  const [carrier, serviceCode, voyage] = id.split("/") as [string, string, string];
  return {
    id,
    carrier,
    serviceCode,
    serviceName: serviceCode,
    voyage,
    vesselImo: "9000001",
    vesselName: "TEST",
    calls,
    departsAt: at(40),
    arrivesAt: at(380),
    status: "active",
    firstSeenAt: at(0),
    changedAt: at(0),
    slipBaselineAt: null,
    version: 1,
    ...over,
  };
}

const AE1 = sailing("MAEU/AE1/01W", [
  call("CNSHA", 40),
  call("SGSIN", 100),
  call("NLRTM", 300),
  call("DEHAM", null),
]);
const AE1_LEFT = sailing("MAEU/AE1/01W", [
  call("CNSHA", 40, { departed: true }),
  call("SGSIN", 100),
  call("NLRTM", 300),
  call("DEHAM", null),
]);

let n = 0;
function follow(over: Partial<FollowRow>): FollowRow {
  const base: FollowRow = {
    id: `f${++n}`,
    orgId: "org-a",
    kind: "sailing",
    sailingId: null,
    carrier: null,
    origin: null,
    destination: null,
    serviceCode: null,
    leadHours: 24,
    cutOffCodes: [],
    identity: "",
    createdAt: at(0),
    ...over,
  };
  return { ...base, identity: followIdentity(base) };
}

describe("which calls a follow covers", () => {
  // [case, follow, sailing, covered call keys]
  test.each([
    [
      "the sailing: every port it departs from",
      follow({ sailingId: "MAEU/AE1/01W" }),
      AE1,
      ["CNSHA-REF", "SGSIN-REF", "NLRTM-REF"],
    ],
    ["another sailing: nothing", follow({ sailingId: "MAEU/AE1/02W" }), AE1, []],
    [
      "a departed call is past its cut-offs",
      follow({ sailingId: "MAEU/AE1/01W" }),
      AE1_LEFT,
      ["SGSIN-REF", "NLRTM-REF"],
    ],
    [
      "the service",
      follow({ kind: "service", carrier: "MAEU", serviceCode: "AE1" }),
      AE1,
      ["CNSHA-REF", "SGSIN-REF", "NLRTM-REF"],
    ],
    [
      "the service of another carrier",
      follow({ kind: "service", carrier: "MSCU", serviceCode: "AE1" }),
      AE1,
      [],
    ],
    [
      "a lane: the origin call only",
      follow({ kind: "lane", origin: "SGSIN", destination: "DEHAM" }),
      AE1,
      ["SGSIN-REF"],
    ],
    [
      "a lane with its carrier",
      follow({ kind: "lane", carrier: "MAEU", origin: "CNSHA", destination: "NLRTM" }),
      AE1,
      ["CNSHA-REF"],
    ],
    [
      "a lane of another carrier",
      follow({ kind: "lane", carrier: "ONEY", origin: "CNSHA", destination: "NLRTM" }),
      AE1,
      [],
    ],
    [
      "a lane the sailing runs the other way",
      follow({ kind: "lane", origin: "NLRTM", destination: "CNSHA" }),
      AE1,
      [],
    ],
    [
      "a lane from a port it only arrives at",
      follow({ kind: "lane", origin: "DEHAM", destination: "NLRTM" }),
      AE1,
      [],
    ],
    [
      "a lane whose origin has left",
      follow({ kind: "lane", origin: "CNSHA", destination: "NLRTM" }),
      AE1_LEFT,
      [],
    ],
  ] as const)("%s", (_, f, s, keys) => {
    expect(followedCalls(f, s).map((c) => c.key)).toEqual([...keys]);
  });
});

describe("due cut-offs at a clock reading", () => {
  const sailingFollow = follow({ sailingId: "MAEU/AE1/01W", leadHours: 24 });
  // [case, follows, clock (hours), due as org|call|code|lead]
  test.each([
    ["nothing within the lead", [sailingFollow], -80, []],
    ["the lead's end is inside", [sailingFollow], -56, ["org-a|CNSHA-REF|DCO|24"]],
    ["now itself is outside (just passed)", [sailingFollow], -32, []],
    ["several codes at once", [sailingFollow], 0, ["org-a|CNSHA-REF|FCO|24", "org-a|CNSHA-REF|VCO|24"]],
    [
      "a code filter",
      [follow({ sailingId: "MAEU/AE1/01W", cutOffCodes: ["FCO"] })],
      0,
      ["org-a|CNSHA-REF|FCO|24"],
    ],
    [
      "two follows of one organisation: one notice, the longer lead",
      [sailingFollow, follow({ kind: "lane", origin: "CNSHA", destination: "NLRTM", leadHours: 48 })],
      -20,
      ["org-a|CNSHA-REF|FCO|48", "org-a|CNSHA-REF|VCO|48"],
    ],
    [
      "two organisations: one notice each",
      [sailingFollow, follow({ orgId: "org-b", kind: "service", carrier: "MAEU", serviceCode: "AE1" })],
      0,
      [
        "org-a|CNSHA-REF|FCO|24",
        "org-a|CNSHA-REF|VCO|24",
        "org-b|CNSHA-REF|FCO|24",
        "org-b|CNSHA-REF|VCO|24",
      ],
    ],
    ["a later port's cut-offs", [sailingFollow], 60, ["org-a|SGSIN-REF|FCO|24", "org-a|SGSIN-REF|VCO|24"]],
  ] as const)("%s", (_, follows, clockH, expected) => {
    const due = dueCutoffs(follows, [AE1], T0 + clockH * H);
    expect(due.map((d) => `${d.orgId}|${d.call}|${d.code}|${d.leadHours}`).sort()).toEqual(
      [...expected].sort(),
    );
    for (const d of due) {
      expect(Date.parse(d.at)).toBeGreaterThan(T0 + clockH * H);
      expect(d.followIds.length).toBeGreaterThan(0);
    }
  });

  test("a withdrawn sailing has no cut-offs due", () => {
    expect(dueCutoffs([sailingFollow], [{ ...AE1, status: "withdrawn" }], T0)).toEqual([]);
  });
});

// [case, notified (hours), now at (hours), threshold hours, notify again]
test.each([
  ["unchanged", 10, 10, 6, false],
  ["later", 10, 30, 6, false],
  ["earlier within the threshold", 10, 4, 6, false],
  ["earlier by exactly the threshold", 10, 4, 6, false],
  ["earlier by more", 10, 3.5, 6, true],
  ["any earlier move at threshold 0", 10, 9.9, 0, true],
] as const)("re-notice: %s", (_, notified, now, threshold, again) => {
  expect(renotice(at(notified), at(now), threshold * H)).toBe(again);
});

describe("a follow's identity", () => {
  const lane = (over: Partial<FollowTarget>) =>
    followIdentity({
      kind: "lane",
      sailingId: null,
      carrier: null,
      origin: "CNSHA",
      destination: "NLRTM",
      serviceCode: null,
      leadHours: 24,
      cutOffCodes: ["FCO", "VCO"],
      ...over,
    });
  // [case, changed fields, same follow]
  test.each([
    ["codes in another order", { cutOffCodes: ["VCO", "FCO"] }, true],
    ["another lead", { leadHours: 48 }, false],
    ["a carrier named", { carrier: "MAEU" }, false],
    ["other codes", { cutOffCodes: ["FCO"] }, false],
    ["the lane reversed", { origin: "NLRTM", destination: "CNSHA" }, false],
  ] as const)("%s", (_, over, same) => {
    expect(lane(over as Partial<FollowTarget>) === lane({})).toBe(same);
  });
});

describe("reliability hysteresis", () => {
  const s = { threshold: 0.7, margin: 0.05, minCalls: 20 };
  // [case, armed, calls, reliability, transition]
  test.each([
    ["armed, above", true, 40, 0.8, "hold"],
    ["armed, at the threshold", true, 40, 0.7, "hold"],
    ["armed, below: drops", true, 40, 0.6999, "drop"],
    ["armed, below but too few calls", true, 19, 0.1, "hold"],
    ["armed, nothing measured", true, 0, null, "hold"],
    ["disarmed, still below", false, 40, 0.5, "hold"],
    ["disarmed, back over the threshold but under the margin", false, 40, 0.74, "hold"],
    ["disarmed, at threshold + margin: re-armed", false, 40, 0.75, "rearm"],
    ["disarmed, above but too few calls", false, 5, 1, "hold"],
  ] as const)("%s", (_, armed, calls, reliability, expected) => {
    expect(transition(armed, { calls, reliability }, s)).toBe(expected);
  });
});
