import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { defaultDirs } from "../../data-build/pipeline.ts";
import type { EngineError } from "../../engine/errors.ts";
import { LocationIndex } from "../../engine/locations/index.ts";
import { encodeArtifact } from "../../formats/container.ts";
import { locationsFixture } from "./fixture.ts";

let index: LocationIndex;
let bytes: Uint8Array;
let loadMs: number;
beforeAll(async () => {
  ({ index, bytes, loadMs } = await locationsFixture());
});

const codes = (q: string, opts = {}) => index.search(q, opts).map((r) => r.locode);

describe("search ranking", () => {
  test("rotter: the main port first, prefix matches before substrings", () => {
    const results = index.search("rotter");
    expect(results[0]).toMatchObject({
      kind: "port",
      locode: "NLRTM",
      name: "Rotterdam",
      country: "Netherlands",
    });
    const firstSubstring = results.findIndex((r) => !r.name.toLowerCase().includes("rotter"));
    const prefixed = results.map((r) => /(^|\W)rotter/i.test(r.name));
    const lastPrefix = prefixed.lastIndexOf(true);
    if (firstSubstring !== -1) expect(lastPrefix).toBeLessThan(firstSubstring);
  });
  test("NLRTM: exact code first", () => {
    expect(codes("NLRTM")[0]).toBe("NLRTM");
    expect(codes("nl rtm")[0]).toBe("NLRTM");
  });
  test("singapore: port, country, airport before anything smaller", () => {
    const top = index.search("singapore", { limit: 4 });
    expect(top[0]).toMatchObject({ kind: "port", locode: "SGSIN" });
    expect(top.map((r) => r.kind)).toEqual(expect.arrayContaining(["port", "country", "airport", "address"]));
  });
  test("shang: Shanghai port, then its airports", () => {
    const top = index.search("shang", { limit: 5 });
    expect(top[0]).toMatchObject({ kind: "port", locode: "CNSHA", name: "Shanghai" });
    expect(top.map((r) => r.locode)).toContain("PVG");
  });
  test("LAX: the airport by IATA code, coded as its IATA", () => {
    expect(index.search("LAX")[0]).toMatchObject({ kind: "airport", locode: "LAX", country_code: "US" });
  });
  test("diacritics-insensitive both ways", () => {
    expect(index.search("zurich", { types: ["address"] })[0]?.name).toBe("Zürich");
    expect(index.search("Zürich", { types: ["airport"] })[0]?.locode).toBe("ZRH");
    expect(index.search("sao paulo", { types: ["address"] })[0]?.name).toBe("São Paulo");
  });
  test("types, geocode and limit", () => {
    expect(index.search("hamburg", { types: ["airport"] }).every((r) => r.kind === "airport")).toBe(true);
    expect(index.search("hamburg", { geocode: false }).some((r) => r.kind === "address")).toBe(false);
    expect(index.search("ham")).toHaveLength(10);
    expect(index.search("ham", { limit: 50 })).toHaveLength(50);
    expect(index.search("Germany", { types: ["country"] })[0]).toMatchObject({
      country_code: "DE",
      locode: null,
    });
  });
  test("results carry exactly the spec fields", () => {
    expect(Object.keys(index.search("rotterdam")[0]!).sort()).toEqual(
      ["country", "country_code", "kind", "lat", "lng", "locode", "name"].sort(),
    );
  });
  test.each([
    ["a", {}],
    ["  b ", {}],
    ["rotterdam", { limit: 0 }],
    ["rotterdam", { limit: 51 }],
    ["rotterdam", { limit: 2.5 }],
    ["rotterdam", { types: ["harbour"] }],
  ])("invalid %p %p -> 400", (q, opts) => {
    let err: unknown;
    try {
      index.search(q, opts as never);
    } catch (e) {
      err = e;
    }
    expect((err as EngineError).code).toBe("invalid_request");
  });
  test("no match is an empty list", () => {
    expect(index.search("xqzvwykq")).toEqual([]);
  });
});

describe("artifact", () => {
  test("loads fast and answers fast", () => {
    // Measured ~150 ms on the 2-core box; the bound leaves room for a loaded CI machine.
    expect(loadMs).toBeLessThan(1500);
    const started = performance.now();
    for (let i = 0; i < 200; i++) {
      index.resolve("NLRTM");
      index.resolve("Portland, US");
      index.search("shang");
    }
    expect((performance.now() - started) / 200).toBeLessThan(20);
  });
  test("a stale or foreign artifact is refused with the rebuild message", () => {
    const stale = encodeArtifact("locations", 999, "old", []);
    expect(() => LocationIndex.fromBytes(stale, "data/build/locations.idx")).toThrow(
      /data\/build\/locations\.idx: format version 999.*npm run build/,
    );
    const other = encodeArtifact("sea-graph", 1, "x", []);
    expect(() => LocationIndex.fromBytes(other)).toThrow(/expected "locations".*npm run build/);
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 100]! ^= 0xff;
    expect(() => LocationIndex.fromBytes(corrupt)).toThrow(/checksum mismatch.*npm run build/);
  });
  test("fromUrl loads through fetch (file: URL here, http(s) in a deployment)", async () => {
    const url = pathToFileURL(join(defaultDirs().outDir, "locations.idx"));
    const viaFetch = await LocationIndex.fromUrl(url);
    expect(viaFetch.buildId).toBe(index.buildId);
    expect(viaFetch.resolve("CNSHA").locode).toBe("CNSHA");
  });
  test("the runtime folder stays web-standard (Deno-compatible)", () => {
    const dir = join(import.meta.dir, "../../engine/locations");
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text).not.toMatch(/from "(bun|bun:[a-z]+|node:[a-z]+)"|\bBun\.|\brequire\(/);
    }
  });
});
