/**
 * The calling thread's half of a sea batch: resolves each distinct location input once (batch
 * files repeat their ports) and packs consecutive rows into SeaChunks for the route workers.
 */

import type { BatchRow } from "../batch.ts";
import { EngineError } from "../errors.ts";
import type { ResolvedPoint } from "../locations/index.ts";
import { type ChunkEnd, errorJson, type SeaChunk } from "./sea-chunk.ts";

/** Distinct inputs kept resolved; past this the cache starts over (a file of unique coordinates). */
const MAX_CACHED = 100_000;

/** How a resolved end is planned and shown (the distance engine's sea-end policy); default as resolved. */
export interface EndPolicy {
  plan(point: ResolvedPoint): ResolvedPoint;
  show(point: ResolvedPoint): object;
}

const AS_RESOLVED: EndPolicy = { plan: (p) => p, show: (p) => p };

export class SeaChunker {
  private readonly cache = new Map<string, ChunkEnd>();

  constructor(
    private readonly resolvePoint: (input: string) => ResolvedPoint,
    private readonly request: SeaChunk["request"],
    private readonly ends: EndPolicy = AS_RESOLVED,
  ) {}

  /** An input's end; a non-EngineError (a bug, not a row's answer) propagates. */
  private end(input: string): ChunkEnd {
    let end = this.cache.get(input);
    if (end === undefined) {
      try {
        const point = this.resolvePoint(input);
        end = { input, point: this.ends.plan(point), shown: this.ends.show(point) };
      } catch (err) {
        if (!(err instanceof EngineError)) throw err;
        end = { error: errorJson(err) };
      }
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(input, end);
    }
    return end;
  }

  /** rows[start, end) as one chunk; their row numbers must be consecutive. */
  chunk(rows: readonly BatchRow[], start: number, end: number): SeaChunk {
    const n = end - start;
    const ends: ChunkEnd[] = [];
    const slot = new Map<ChunkEnd, number>();
    const at = (e: ChunkEnd) => {
      let i = slot.get(e);
      if (i === undefined) {
        i = ends.push(e) - 1;
        slot.set(e, i);
      }
      return i;
    };
    const from = new Uint32Array(n);
    const to = new Uint32Array(n);
    let ids: Array<string | null> | null = null;
    for (let i = 0; i < n; i++) {
      const r = rows[start + i]!;
      const f = this.end(r.from);
      from[i] = at(f);
      // As before: a row whose origin fails is not resolved further.
      to[i] = "error" in f ? from[i]! : at(this.end(r.to));
      if (r.id !== undefined) {
        ids ??= new Array<string | null>(n).fill(null);
        ids[i] = r.id;
      }
    }
    return { request: this.request, start: rows[start]!.row, ids, ends, from, to };
  }
}
