/**
 * A sea batch chunk (engine/batch/chunker.ts + sea-chunk.ts) on the real build: every line equals
 * the line the batch writes for that row on its own, {row, id?, ok, data: {from, to, ...plan}} or
 * {row, id?, ok: false, error: {code, message}}, and each distinct input is resolved once. Through
 * a RoutePool holding two chunks per worker, the same bytes come back, in any order of completion.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SeaChunker } from "../../engine/batch/chunker.ts";
import { seaChunkLines } from "../../engine/batch/sea-chunk.ts";
import type { BatchRow } from "../../engine/batch.ts";
import { withResolvedEnds } from "../../engine/distance/places.ts";
import { EngineError } from "../../engine/errors.ts";
import { LocationIndex, type ResolvedPoint } from "../../engine/locations/index.ts";
import { Overloaded, RoutePool } from "../../engine/sea/pool.ts";
import { routePoint } from "../../engine/sea/route-point.ts";
import type { SeaRouter } from "../../engine/sea/router.ts";
import { BUILD_DIR, seaRouter } from "./fixture.ts";

/** [id, from, to, what the row tests] */
const ROWS: Array<[string | undefined, string, string, string]> = [
  ["a", "NLRTM", "SGSIN", "ports by code"],
  ["b", "NLRTM", "SGSIN", "the same pair again"],
  [undefined, "SGSIN", "NLRTM", "no id"],
  ['q"1\\é', "51.9,4.4667", "1.2667,103.8333", "coordinates, an id to escape"],
  ["e", "", "SGSIN", "empty origin"],
  ["f", "SGSIN", "91,0", "destination off the globe"],
  ["g", "ZZZZZ", "NLRTM", "unknown code"],
  ["h", "40.42,-3.70", "NLRTM", "inland origin: no sea route"],
  ["i", "CNSHA", "USLAX", "legacy code"],
  ["j", "NLRTM", "NLRTM", "same port"],
];

const batchRows = (start: number): BatchRow[] =>
  ROWS.map(([id, from, to], i) => ({ row: start + i, from, to, ...(id === undefined ? {} : { id }) }));

const loadIndex = () =>
  LocationIndex.fromBytes(new Uint8Array(readFileSync(join(BUILD_DIR, "locations.idx"))));

/** An end with where the route meets the lanes: the router's snap of the point. */
function withRoutePoint(router: SeaRouter, side: "from" | "to", p: ResolvedPoint) {
  const s = router.snap(p.lat, p.lng)!;
  const snapped = { node: 0, lat: s.lat, lng: s.lng, snapM: s.km * 1000 };
  return { ...p, route_point: routePoint(side, { name: p.name, port: p.kind === "port" }, snapped) };
}

/** The line of one row planned on its own, as the batch writes it per row. */
function reference(router: SeaRouter, index: LocationIndex, r: BatchRow, request: object): string {
  const head = { row: r.row, ...(r.id === undefined ? {} : { id: r.id }) };
  let ends: Array<["from" | "to", string, ResolvedPoint]> = [];
  try {
    const from = index.resolve(r.from);
    const to = index.resolve(r.to);
    ends = [
      ["from", r.from, from],
      ["to", r.to, to],
    ];
    const data = router.plan({ ...request, from, to });
    const shown = { from: withRoutePoint(router, "from", from), to: withRoutePoint(router, "to", to) };
    return JSON.stringify({ ...head, ok: true, data: { ...shown, ...data } });
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
    const named = withResolvedEnds(err, ends) as EngineError;
    return JSON.stringify({ ...head, ok: false, error: { code: named.code, message: named.message } });
  }
}

const REQUESTS = [
  { speedKnots: 14, routingMode: "short", avoid: [], path: false, alternatives: false },
  { speedKnots: 11.5, routingMode: "safe", avoid: ["suez"], path: true, alternatives: true },
] as const;

test.each(REQUESTS.map((r) => [r]))(
  "a chunk's lines equal the rows planned one by one (%o)",
  async (request) => {
    const router = await seaRouter();
    const index = LocationIndex.fromBytes(new Uint8Array(readFileSync(join(BUILD_DIR, "locations.idx"))));
    const resolved: string[] = [];
    const chunker = new SeaChunker((input) => {
      resolved.push(input);
      return index.resolve(input);
    }, request);
    // Two chunks of the same rows, numbered on from 100: the second resolves nothing again.
    const rows = [...batchRows(100), ...batchRows(100 + ROWS.length)];
    const chunks = [chunker.chunk(rows, 0, ROWS.length), chunker.chunk(rows, ROWS.length, rows.length)];
    const text = chunks.map((c) => new TextDecoder().decode(seaChunkLines(router, c))).join("");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines).toEqual(rows.map((r) => reference(router, index, r, request)));
    const verdicts = lines.map((l) => JSON.parse(l)).map((l) => (l.ok ? "ok" : l.error.code));
    expect(verdicts.slice(0, ROWS.length)).toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "invalid_request",
      "invalid_request",
      "location_not_found",
      "no_route",
      "ok",
      "ok",
    ]);
    // Each distinct input once ("empty origin" stops its row before the destination resolves).
    expect(resolved.sort()).toEqual(
      [...new Set(ROWS.flatMap(([, f, t]) => (f === "" ? [f] : [f, t])))].sort(),
    );
    // A chunk carries each distinct end once.
    expect(chunks[0]!.ends.length).toBe(new Set(resolved).size);
  },
);

test("a pool with two chunks per worker answers each chunk as this thread does", async () => {
  const router = await seaRouter();
  const index = loadIndex();
  const chunker = new SeaChunker((input) => index.resolve(input), REQUESTS[0]);
  const rows = Array.from({ length: 6 }, (_, k) => batchRows(k * ROWS.length)).flat();
  const chunks = Array.from({ length: 6 }, (_, k) =>
    chunker.chunk(rows, k * ROWS.length, (k + 1) * ROWS.length),
  );
  const pool = await RoutePool.start({ buildDir: BUILD_DIR, workers: 2, queue: 2, perWorker: 2 });
  try {
    const answers = await Promise.all(chunks.map((c) => pool.planSeaChunk(c)));
    expect(answers.map((a) => new TextDecoder().decode(a))).toEqual(
      chunks.map((c) => new TextDecoder().decode(seaChunkLines(router, c))),
    );
    // Two in flight per worker and two waiting: one more is shed.
    const held = chunks.map((c) => pool.planSeaChunk(c));
    expect(pool.stats()).toMatchObject({ busy: 2, waiting: 2 });
    expect(await pool.planSeaChunk(chunks[0]!).catch((e) => e)).toBeInstanceOf(Overloaded);
    await Promise.allSettled(held);
  } finally {
    await pool.close();
  }
});

test("a shed request's Retry-After counts every chunk in flight, not one per worker", async () => {
  const index = loadIndex();
  const chunker = new SeaChunker((input) => index.resolve(input), REQUESTS[0]);
  const rows = batchRows(0);
  const perWorker = 60;
  const pool = await RoutePool.start({ buildDir: BUILD_DIR, workers: 1, queue: 0, perWorker });
  try {
    // Dispatched at once; none has answered when the next is shed, so the pool still assumes its
    // starting 20 ms a job: 60 ahead on one worker is 1.2 s, 2 s once rounded up (one per worker: 1 s).
    const held = Array.from({ length: perWorker }, () =>
      pool.planSeaChunk(chunker.chunk(rows, 0, rows.length)),
    );
    const shed = await pool.planSeaChunk(chunker.chunk(rows, 0, rows.length)).catch((e) => e);
    expect(shed).toBeInstanceOf(Overloaded);
    expect((shed as Overloaded).retryAfterSeconds).toBe(2);
    await Promise.all(held);
  } finally {
    await pool.close();
  }
});

test("a worker killed with two chunks in flight fails both and is replaced", async () => {
  const index = loadIndex();
  const chunker = new SeaChunker((input) => index.resolve(input), REQUESTS[1]);
  const rows = Array.from({ length: 20 }, (_, k) => batchRows(k * ROWS.length)).flat();
  const pool = await RoutePool.start({ buildDir: BUILD_DIR, workers: 1, queue: 0, perWorker: 2 });
  try {
    const inFlight = [chunker.chunk(rows, 0, 100), chunker.chunk(rows, 100, 200)].map((c) =>
      pool.planSeaChunk(c).catch((e) => e),
    );
    const [victim] = pool.threads();
    await victim!.terminate();
    for (const err of await Promise.all(inFlight)) expect(err).toBeInstanceOf(Overloaded);
    while (pool.stats().ready < 1) await Bun.sleep(20);
    expect(pool.threads()[0]).not.toBe(victim);
    const again = await pool.planSeaChunk(chunker.chunk(rows, 0, ROWS.length));
    expect(new TextDecoder().decode(again).split("\n")).toHaveLength(ROWS.length + 1);
  } finally {
    await pool.close();
  }
});
