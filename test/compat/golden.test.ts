/**
 * Golden structure: our answers for sandbox references like the vendor's samples (a container with
 * a transshipment, a bill of lading with several boxes, the AIS block of a box at sea) have the
 * samples' keys, JSON types and nesting at every level. Deliberate deviations are the allow-lists
 * below, each explained in docs/compat.md ("Deviations from the samples").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld } from "../../ingest/sandbox/world.ts";
import { type CompatWorld, compatGet, compatWorld, type Json } from "./setup.ts";
import { type Allowances, sample, structuralDiff } from "./structure.ts";

/** Fields the vendor's reference documents as "T or null", and the spec's null for "uncapped". */
const NULLABLE = [
  /^data\.metadata\.(updated_at|cache_expires)$/,
  /^data\.metadata\.(api_calls|unique_shipments)\.(total|remaining)$/,
  /^data\.locations\[\]\.(state|locode)$/,
  /^data\.facilities\[\]\.(country_code|locode|bic_code|smdg_code|lat|lng)$/,
  /^data\.route\.(prepol|pol|pod|postpod)\.(location|date|actual)$/,
  /^data\.route\.pod\.predictive_eta$/,
  /^data\.vessels\[\]\.(imo|call_sign|mmsi|flag)$/,
  /^data\.containers\[\]\.events\[\]\.(location|facility|transport_type|vessel|voyage)$/,
  /^data\.route_data(\.pin)?$/,
  /^data\.route_data\.route\[\]\.vessel(\.(imo|call_sign|mmsi|flag))?$/,
  /^data\.route_data\.route\[\]\.(from|to)\.(state|locode)$/,
  /^data\.route_data\.ais\.data(\.(discharge_port|departure_port|arrival_port))?$/,
  /^data\.route_data\.ais\.data\.vessel\.(imo|call_sign|mmsi|flag)$/,
];

/** The 2024 container sample predates fields the 2026 samples carry; the spec adds two more. */
const CONTAINER_SAMPLE: Allowances = {
  nullable: NULLABLE,
  extra: [
    "data.metadata.from_cache", // spec: always false
    "data.metadata.cache_expires", // spec: updated_at + 12 h
    "data.containers[].events_mirrored", // 2026 shape
    "data.containers[].events[].is_date_from_sealine", // 2026 shape
    "data.route_data.route[].from", // 2026 shape
    "data.route_data.route[].to",
    "data.route_data.route[].vessel",
  ],
};
/** Website-proxy-only fields the reference says not to emit on the API. */
const BL_SAMPLE: Allowances = {
  nullable: NULLABLE,
  missing: ["data.metadata.daily", "data.metadata.is_free"],
};
/** The AIS fragment was cut from a full answer: its route legs were trimmed away. */
const AIS_FRAGMENT: Allowances = { nullable: NULLABLE, extra: ["data.route_data.route"] };

const STATUS = new Set(["PLANNED", "IN_TRANSIT", "DELIVERED", "UNKNOWN"]);
const MILESTONES = new Set(
  "UNK LTS BTS CEP CPS CGI CLL VDL VAT CDT TSD CLT VDT VAD CDD CGO CDC CER".split(" "),
);
const DCSA_CODES = new Set(
  "ARRI DEPA LOAD DISC GTIN GTOT STUF STRP PICK AVPU DROP AVDO INSP RSEA RMVD".split(" "),
);
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

let w: CompatWorld;
beforeAll(async () => {
  w = await compatWorld({ sandboxEnv: { SANDBOX_AIS_INTERVAL_MS: "60000" } });
  // The AIS feed of the sandbox, as in production; the carrier still goes through the proxy.
  const { startAisFeeds } = await import("../../ingest/ais/feeds.ts");
  feeds = startAisFeeds([w.sandbox.aisUrl], w.p.tracking.positions, w.clock.now);
});
let feeds: { close(): Promise<void> };
afterAll(async () => {
  await feeds.close();
  await w.close();
});

/** Vocabularies and formats the samples cannot show by structure alone. */
function vocabularyProblems(data: Json): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => ok || problems.push(what);
  const meta = data.metadata as Json;
  check(STATUS.has(meta.status as string), `metadata.status ${meta.status}`);
  check(DATE.test(meta.updated_at as string), `updated_at ${meta.updated_at}`);
  check(
    Date.parse(`${meta.cache_expires}Z`) - Date.parse(`${meta.updated_at}Z`) === 12 * 3_600_000,
    "cache_expires is not updated_at + 12 h",
  );
  const ids = (key: string) => new Set((data[key] as Json[]).map((x) => x.id));
  const [locations, facilities, vessels] = [ids("locations"), ids("facilities"), ids("vessels")];
  for (const c of data.containers as Json[]) {
    check(STATUS.has(c.status as string), `container status ${c.status}`);
    (c.events as Json[]).forEach((e, i) => {
      check(e.order_id === i + 1, `order_id ${e.order_id} at ${i}`);
      check(MILESTONES.has(e.status as string), `event status ${e.status}`);
      check(DCSA_CODES.has(e.event_code as string), `event_code ${e.event_code}`);
      check(
        e.event_type === (["ARRI", "DEPA"].includes(e.event_code as string) ? "TRANSPORT" : "EQUIPMENT"),
        "event_type",
      );
      check(DATE.test(e.date as string), `event date ${e.date}`);
      check(e.type === "sea" ? e.transport_type === "VESSEL" : e.transport_type === null, "transport_type");
      check(e.location === null || locations.has(e.location), `event location ${e.location}`);
      check(e.facility === null || facilities.has(e.facility), `event facility ${e.facility}`);
      check(e.vessel === null || vessels.has(e.vessel), `event vessel ${e.vessel}`);
    });
  }
  for (const point of Object.values(data.route as Record<string, Json>)) {
    check(point.location === null || locations.has(point.location), "route location");
  }
  return problems;
}

describe("our answers have the vendor samples' structure", () => {
  test("a container with a transshipment, like vendor_CT_TCNU2633195", async () => {
    const res = await compatGet(w, { number: "MRKU3405304", route: "true" });
    expect(res.status).toBe(200);
    const data = res.body.data as Json;
    expect(Object.keys(data)).toEqual([
      "metadata",
      "locations",
      "facilities",
      "route",
      "vessels",
      "containers",
      "route_data",
    ]);
    const theirs = await sample("vendor_CT_TCNU2633195_paths_trimmed.json");
    expect(structuralDiff(res.body, theirs, CONTAINER_SAMPLE)).toEqual([]);
    expect(vocabularyProblems(data)).toEqual([]);
    // The transshipment reads in the vendor's words, in order.
    const codes = ((data.containers as Json[])[0]!.events as Json[]).map((e) => e.status);
    const order = ["CEP", "CGI", "CLL", "VDL", "VAT", "CDT"];
    expect(codes.filter((c) => order.includes(c as string))).toEqual(order);
    expect(((data.route_data as Json).route as Json[]).length).toBe(2);
  });

  test("a bill of lading with several boxes, like vendor_BL_3100124492", async () => {
    const res = await compatGet(w, { number: "MAEU200000630", route: "true" });
    const data = res.body.data as Json;
    const theirs = await sample("vendor_BL_3100124492_real.json");
    expect(structuralDiff(res.body, theirs, BL_SAMPLE)).toEqual([]);
    expect(vocabularyProblems(data)).toEqual([]);
    const containers = data.containers as Json[];
    expect(containers.length).toBe(3);
    expect((data.metadata as Json).type).toBe("BL");
    // Places and hulls are shared, not repeated per box.
    const locodes = (data.locations as Json[]).map((l) => l.locode);
    expect(new Set(locodes).size).toBe(locodes.length);
    const names = (data.vessels as Json[]).map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect((data.facilities as Json[]).length).toBeGreaterThan(0);
  });

  test("the AIS block of a box at sea, like vendor_route_data_ais_fragment", async () => {
    const ref = "MSAU2375830";
    const first = await compatGet(w, { number: ref, ais: "true" });
    expect(first.body.status).toBe("success");
    // The sandbox broadcasts its hulls when its clock is set; wait for the fix, then ask again.
    const imo = Number(simulateVoyage(ref, { world: await loadWorld() })!.legs[0]!.vessel.imo);
    await w.at(w.clock.t);
    for (let i = 0; i < 200 && !w.p.tracking.positions.byImo(imo, w.clock.t); i++) await Bun.sleep(20);
    const res = await compatGet(w, { number: ref, route: "true", ais: "true", force_update: "true" });
    const routeData = (res.body.data as Json).route_data as Json;
    const ais = routeData.ais as Json;
    expect(ais.status).toBe("OK");
    const fragment = await sample("vendor_route_data_ais_fragment.json");
    expect(
      structuralDiff(
        { data: { route_data: routeData } },
        { data: { route_data: fragment.route_data } },
        AIS_FRAGMENT,
      ),
    ).toEqual([]);
    // The pin is the AIS fix; the AIS vessel is the hull of the route leg under way.
    const fix = w.p.tracking.positions.byImo(imo, w.clock.t)!;
    expect(routeData.pin).toEqual([fix.lat, fix.lng]);
    const aisData = ais.data as Json;
    expect((aisData.vessel as Json).imo).toBe(imo);
    expect((aisData.vessel as Json).mmsi).toBe(fix.mmsi);
    expect((aisData.departure_port as Json).date_label).toBe("ATD");
    expect((aisData.arrival_port as Json).date_label).toBe("ETA");
  }, 15_000);
});

test("the structural diff sees missing keys, extra keys, other types and other nesting", () => {
  const theirs = { a: [{ x: 1, y: "s" }], b: { c: null } };
  expect(structuralDiff({ a: [{ x: 1, y: "s" }], b: { c: null } }, theirs)).toEqual([]);
  expect(structuralDiff({ a: [{ x: "1", y: "s" }], b: { c: null } }, theirs)).toEqual([
    "a[].x: we send string, the sample has number",
    "a[].x: the sample has number, we never send it",
  ]);
  expect(structuralDiff({ a: [{ x: 1 }], b: { c: null, d: 1 } }, theirs)).toEqual([
    "a[].y: in the sample, we never send it",
    "b.d: we send it, the sample has no such key",
  ]);
  expect(structuralDiff({ a: { x: 1, y: "s" }, b: { c: 2 } }, theirs, { nullable: [/^b\.c$/] })).toEqual([
    "a: we send object, the sample has array",
    "a: the sample has array, we never send it",
  ]);
});
