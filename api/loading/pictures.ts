/**
 * Load plans' unit pictures, kept once drawn. A picture is a function of the stored plan alone,
 * and every change of a plan adds 1 to its version, so a picture is kept under plan id, version,
 * unit and format and never goes stale: a changed plan is looked up under its new version. At most
 * PORTOLAN_PICTURE_CACHE_BYTES of pictures are held, the least recently served dropped first (0
 * keeps none). Requests for a picture that is being drawn wait for that drawing instead of
 * drawing it again. docs/loadplan.md, "Unit pictures".
 */
import { Lru } from "../../common/lru.ts";

export const pictureKey = (planId: string, version: number, unit: number, format: "svg") =>
  `${planId}\n${version}\n${unit}\n${format}`;

export class UnitPictures {
  private readonly kept: Lru<string, Uint8Array<ArrayBuffer>>;
  private readonly drawing = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  constructor(maxBytes: number) {
    this.kept = new Lru(maxBytes > 0 ? Number.POSITIVE_INFINITY : 0, {
      max: maxBytes,
      of: (bytes) => bytes.byteLength,
    });
  }

  /** The picture kept under `key`, or undefined. */
  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    return this.kept.get(key);
  }

  /** The picture under `key`: kept, being drawn, or drawn now by `draw` and kept (failures are not). */
  draw(key: string, draw: () => Promise<Uint8Array<ArrayBuffer>>): Promise<Uint8Array<ArrayBuffer>> {
    const kept = this.kept.get(key);
    if (kept) return Promise.resolve(kept);
    let pending = this.drawing.get(key);
    if (!pending) {
      pending = draw()
        .then((bytes) => {
          this.kept.set(key, bytes);
          return bytes;
        })
        .finally(() => this.drawing.delete(key));
      this.drawing.set(key, pending);
    }
    return pending;
  }
}
