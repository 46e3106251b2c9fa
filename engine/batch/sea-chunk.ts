/**
 * A chunk of sea batch rows planned in one worker job: one message each way per chunk instead of
 * per route, ends resolved once on the calling thread (a batch repeats its ports), NDJSON lines
 * built in the worker and sent back as UTF-8 bytes (transferred, not copied). The lines are
 * exactly what engine/batch.ts wrote per row before: {row, id?, ok: true, data: {from, to,
 * ...SeaRouteData}} or {row, id?, ok: false, error: {code, message}}.
 */

import { EngineError } from "../errors.ts";
import type { ResolvedPoint } from "../locations/index.ts";
import type { SeaRouteRequest, SeaRouter } from "../sea/router.ts";

/** A row's end as the calling thread resolved it: the point and its JSON, or its error's JSON. */
export type ChunkEnd = { point: ResolvedPoint; json: string } | { error: string };

export interface SeaChunk {
  /** The batch's options, the same for every row. */
  request: Omit<SeaRouteRequest, "from" | "to">;
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
      // JSON.stringify(plan(...)), with a path's text written by the router (SeaRouter.planJson).
      const data = router.planJson({ ...request, from: f.point, to: t.point });
      // SeaRouteData's keys follow from and to, as in {from, to, ...data}.
      text += `${head},"ok":true,"data":{"from":${f.json},"to":${t.json},${data.slice(1)}}\n`;
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      text += `${head},"ok":false,"error":${errorJson(err)}}\n`;
    }
  }
  return encoder.encode(text);
}
