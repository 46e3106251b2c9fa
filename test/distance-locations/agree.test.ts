/** Search and resolution agree, admin-1 names qualify, major places rank first. */
import { beforeAll, describe, expect, test } from "bun:test";
import type { LocationIndex } from "../../engine/locations/index.ts";
import { locationsFixture } from "./fixture.ts";

let index: LocationIndex;
beforeAll(async () => {
  index = (await locationsFixture()).index;
});

type First = { kind: string; name?: string | RegExp; locode?: string | null; country_code: string };

const firstResults: Array<[string, First]> = [
  ["Hamburg, Germany", { kind: "port", locode: "DEHAM", country_code: "DE" }],
  ["Hamburg, DE", { kind: "port", locode: "DEHAM", country_code: "DE" }],
  ["Springfield, Illinois", { kind: "address", name: "Springfield", country_code: "US" }],
  ["Springfield, IL", { kind: "address", name: "Springfield", country_code: "US" }],
  ["Paris, Texas", { kind: "address", name: "Paris", country_code: "US" }],
  ["Munich, Bavaria", { kind: "address", name: "Munich", country_code: "DE" }],
  // The city itself before the airports serving it (Guarulhos is 20 km out).
  ["Sao Paulo", { kind: "address", name: "São Paulo", country_code: "BR" }],
  ["rotter", { kind: "port", locode: "NLRTM", country_code: "NL" }],
  ["shang", { kind: "port", locode: "CNSHA", country_code: "CN" }],
  ["singapore", { kind: "port", locode: "SGSIN", country_code: "SG" }],
  ["Los Angeles", { kind: "port", locode: "USLAX", country_code: "US" }],
];

describe("first search result", () => {
  test.each(firstResults)("%s", (q, want) => {
    const { name, ...rest } = want;
    const first = index.search(q)[0];
    expect(first).toMatchObject(rest);
    if (name) expect(first!.name).toMatch(name);
  });
});

describe("search and resolution agree", () => {
  test.each([
    "Hamburg, Germany",
    "Springfield, Illinois",
    "Springfield, IL",
    "Paris, Texas",
    "Portland, Maine",
    "Sao Paulo",
    "Portland, AU",
  ])("%s: the resolved point is among the search results", (q) => {
    const p = index.resolve(q);
    const hits = index.search(q, { limit: 10 });
    expect(hits.some((h) => h.name === p.name && h.lat === p.lat && h.lng === p.lng)).toBe(true);
  });

  test("admin-1 names narrow to the right state", () => {
    const il = index.resolve("Springfield, Illinois");
    expect(il).toMatchObject({ country_code: "US" });
    expect(Math.abs(il.lat - 39.8)).toBeLessThan(0.3);
    expect(Math.abs(il.lng + 89.64)).toBeLessThan(0.3);
    const mo = index.resolve("Springfield, Missouri");
    expect(Math.abs(mo.lat - 37.2)).toBeLessThan(0.3);
    expect(index.resolve("Hamburg, Hamburg").country_code).toBe("DE");
    expect(index.search("Springfield, Illinois").every((r) => r.country_code === "US")).toBe(true);
  });

  test("a qualifier that is neither country nor admin finds nothing, in both", () => {
    expect(index.search("Portland, Narnia")).toEqual([]);
    expect(() => index.resolve("Portland, Narnia")).toThrow();
  });
});

describe("major places rank above small ones", () => {
  test("Sao Paulo: the city, then Guarulhos, before the executive airport", () => {
    const names = index.search("Sao Paulo").map((r) => r.name);
    const gru = names.findIndex((n) => n.startsWith("Guarulhos"));
    const exec = names.findIndex((n) => /Executive/.test(n));
    expect(names.indexOf("São Paulo")).toBe(0);
    expect(gru).toBe(1);
    expect(gru).toBeLessThan(exec === -1 ? 99 : exec);
  });
  test("airports by size: a large airport before a small one of the same words", () => {
    const airports = index.search("Sao Paulo", { types: ["airport"], limit: 5 }).map((r) => r.locode);
    expect(airports[0]).toBe("GRU");
  });
});
