/**
 * A chunk of sea batch rows planned in one worker job: one message each way per chunk instead of
 * per route, ends resolved once on the calling thread (a batch repeats its ports), NDJSON lines
 * built in the worker and sent back as UTF-8 bytes (transferred, not copied). The lines are
 * exactly what engine/batch.ts wrote per row before: {row, id?, ok: true, data: {from, to,
 * ...SeaRouteData}} (each end with its route_point) or {row, id?, ok: false, error: {code, message}}.
 */

import { withResolvedEnds } from "../distance/places.ts";
import { EngineError } from "../errors.ts";
import type { ResolvedPoint } from "../locations/index.ts";
import type { SeaRouteRequest, SeaRouter } from "../sea/router.ts";

/** A row's end as the calling thread resolved it: its text, the point planned and shown; or its error's JSON. */
export type ChunkEnd = { input: string; point: ResolvedPoint; shown: object } | { error: string };

export interface SeaChunk {
  /** The batch's options, the same for every row. */
  request: Omit<SeaRouteRequest, "from" | "to" | "show">;
  /** Row number of the chunk's first row; rows are consecutive. */
  start: number;
  /** Each row's id (null: none), or null when the input has no ids at all. */
  ids: Array<string | null> | null;
  /** The distinct ends of the chunk; from[i] and to[i] index them. */
  ends: ChunkEnd[];
  from: Uint32Array;
  to: Uint32Array;
}

/** {code, message} of a row's EngineError, as its line shows it. */
export const errorJson = (err: EngineError): string =>
  JSON.stringify({ code: err.code, message: err.message });

const encoder = new TextEncoder();

/**
 * Plans every row of `chunk` and returns its NDJSON lines. A row's EngineError is its answer; any
 * other error fails the chunk (and the run), as it failed the run per row before.
 */
export function seaChunkLines(router: SeaRouter, chunk: SeaChunk): Uint8Array {
  const { request, start, ids, ends, from, to } = chunk;
  let text = "";
  for (let i = 0; i < from.length; i++) {
    const id = ids?.[i];
    const head = `{"row":${start + i}${id == null ? "" : `,"id":${JSON.stringify(id)}`}`;
    const f = ends[from[i]!]!;
    const t = ends[to[i]!]!;
    if ("error" in f) {
      text += `${head},"ok":false,"error":${f.error}}\n`;
      continue;
    }
    if ("error" in t) {
      text += `${head},"ok":false,"error":${t.error}}\n`;
      continue;
    }
    try {
      // {from, to, ...plan(...)}, the ends with their route points (SeaRouter.planJson).
      const show = { from: f.shown, to: t.shown };
      const data = router.planJson({ ...request, from: f.point, to: t.point, show });
      text += `${head},"ok":true,"data":${data}}\n`;
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      const named = withResolvedEnds(err, [
        ["from", f.input, f.point],
        ["to", t.input, t.point],
      ]) as EngineError;
      text += `${head},"ok":false,"error":${errorJson(named)}}\n`;
    }
  }
  return encoder.encode(text);
}
