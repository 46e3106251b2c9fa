/**
 * The Bischoff-Ratcliff generator (test/support/bischoff-ratcliff.ts) against the published sets:
 * with the published seeds it gives BR1-BR7 box for box (dimensions, quantities, orientations).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { CONTAINER, generate, generateSet } from "../support/bischoff-ratcliff.ts";

type Published = {
  instance: number;
  container: number[];
  boxes: Array<[number, number, number, number, string[]]>;
};
const file = join(defaultDirs().sourcesDir, "loadplan/bischoff-ratcliff-br0-br7.json");
const TYPES: Record<string, number> = { BR1: 3, BR2: 5, BR3: 8, BR4: 10, BR5: 12, BR6: 15, BR7: 20 };
const canonical = (boxes: Published["boxes"]) =>
  boxes.map(([l, w, h, q, names]) => [l, w, h, q, [...names].sort()]);

test("with the published seeds the generator reproduces BR1-BR7 instance for instance", () => {
  const published = JSON.parse(readFileSync(file, "utf8")) as Record<string, Published[]>;
  for (const [set, types] of Object.entries(TYPES)) {
    const mine = generateSet(set, types, 100);
    const theirs = published[set]!;
    expect(theirs.length).toBe(100);
    theirs.forEach((inst, i) => {
      expect(mine[i]!.container).toEqual(inst.container as [number, number, number]);
      expect(canonical(mine[i]!.boxes)).toEqual(canonical(inst.boxes));
    });
  }
});

test("generated cargo fits the container's volume and follows the stability rule", () => {
  const volume = CONTAINER[0] * CONTAINER[1] * CONTAINER[2];
  for (const seed of [1, 77, 9_999_999]) {
    const { boxes } = generate(100, seed);
    expect(boxes.length).toBe(100);
    const cargo = boxes.reduce((s, [l, w, h, q]) => s + l * w * h * q, 0);
    expect(cargo).toBeLessThanOrEqual(volume);
    expect(cargo).toBeGreaterThan(0.95 * volume);
    for (const [l, w, h, q, names] of boxes) {
      expect(l >= w && w >= h && q >= 1).toBe(true);
      expect(names.includes("xyz")).toBe(true); // the smallest dimension may always stand vertical
      expect(names.includes("zyx")).toBe(l / h < 2);
    }
  }
});
