import { beforeAll, describe, expect, test } from "bun:test";
import { EngineError } from "../../engine/errors.ts";
import { externalGeocoder, type LocationIndex, type ResolvedPoint } from "../../engine/locations/index.ts";
import { locationsFixture } from "./fixture.ts";

let index: LocationIndex;
beforeAll(async () => {
  index = (await locationsFixture()).index;
});

type Expect = Partial<ResolvedPoint> & { near?: [number, number] };

const cases: Array<[string, Expect]> = [
  [
    "NLRTM",
    { kind: "port", locode: "NLRTM", name: "Rotterdam", country: "Netherlands", source: "main_ports" },
  ],
  ["NL RTM", { kind: "port", locode: "NLRTM" }],
  ["nlrtm", { kind: "port", locode: "NLRTM" }],
  ["RTM", { kind: "airport", iata: "RTM", country_code: "NL" }],
  // Carriers still send the legacy code; CNSHA is now Hongqiao airport in UN/LOCODE.
  ["CNSHA", { kind: "port", locode: "CNSHA", name: "Shanghai", timezone: "Asia/Shanghai" }],
  ["CNSHG", { kind: "port", locode: "CNSHG" }],
  ["LAX", { kind: "airport", iata: "LAX", source: "ourairports", timezone: "America/Los_Angeles" }],
  ["KLAX", { kind: "airport", iata: "LAX", near: [33.94, -118.41] }],
  ["lax", { kind: "airport", iata: "LAX" }],
  ["DE", { kind: "country", name: "Germany", country_code: "DE", near: [51.1, 10.4] }],
  ["us", { kind: "country", country_code: "US" }],
  // The main container port ranks above the city of the same name, as search lists them.
  ["Hamburg", { kind: "port", locode: "DEHAM", country_code: "DE", near: [53.55, 9.99] }],
  ["Portland, US", { country_code: "US", near: [45.52, -122.68] }],
  ["Portland, AU", { country_code: "AU", near: [-38.35, 141.6] }],
  ["Portland, Australia", { country_code: "AU" }],
  ["Portland, ME", { country_code: "US", near: [43.66, -70.26] }],
  ["Portland AU", { country_code: "AU" }],
  ["São Paulo", { country_code: "BR", near: [-23.55, -46.64] }],
  ["sao paulo, brazil", { country_code: "BR" }],
  ["Lima", { kind: "address", country_code: "PE" }],
  ["PARIS", { kind: "address", country_code: "FR" }],
  ["Tanjung Priok", { kind: "port", locode: "IDTPP", near: [-6.09, 106.88] }],
  ["51.9,4.5", { kind: "coordinates", lat: 51.9, lng: 4.5, source: "coordinates", locode: null }],
  [" -33.92 , 18.42 ", { kind: "coordinates", lat: -33.92, lng: 18.42 }],
];

describe("resolve", () => {
  test.each(cases)("%s", (input, want) => {
    const { near, ...fields } = want;
    const got = index.resolve(input);
    expect(got).toMatchObject(fields);
    if (near) {
      expect(Math.abs(got.lat - near[0])).toBeLessThan(0.5);
      expect(Math.abs(got.lng - near[1])).toBeLessThan(0.5);
    }
  });

  const errors: Array<[string, "invalid_request" | "location_not_found"]> = [
    ["", "invalid_request"],
    ["91,10", "invalid_request"],
    ["45,181", "invalid_request"],
    ["12", "invalid_request"],
    ["1.5,", "invalid_request"],
    ["ZZ", "location_not_found"],
    ["QQZZZ", "location_not_found"],
    ["Xqzvwyk Town", "location_not_found"],
    ["Portland, Narnia", "location_not_found"],
  ];
  test.each(errors)("%p -> %s", (input, key) => {
    let err: unknown;
    try {
      index.resolve(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe(key);
  });

  test("every resolved point has the full shape", () => {
    for (const input of ["NLRTM", "LAX", "DE", "Hamburg", "1,2"]) {
      expect(Object.keys(index.resolve(input)).sort()).toEqual(
        [
          "country",
          "country_code",
          "iata",
          "kind",
          "lat",
          "lng",
          "locode",
          "name",
          "source",
          "timezone",
        ].sort(),
      );
    }
  });
});

describe("port helpers", () => {
  test("time zones by UN/LOCODE, aliases included", () => {
    expect(index.timezoneOf("NLRTM")).toBe("Europe/Amsterdam");
    expect(index.timezoneOf("CNSHA")).toBe("Asia/Shanghai");
    expect(index.timezoneOf("USLAX")).toBe("America/Los_Angeles");
    expect(index.timezoneOf("QQZZZ")).toBeNull();
  });
  test("port lookup and canonical codes", () => {
    expect(index.port("DE HAM")).toMatchObject({ name: "Hamburg", country: "Germany", kind: "port" });
    expect(index.canonicalLocode("cnsha")).toBe("CNSHA");
    expect(index.canonicalLocode("CNSHG")).toBe("CNSHA");
    expect(index.port("CNNBG")).toMatchObject({ name: "Ningbo", locode: "CNNBG" });
    expect(index.port("cn ngb")).toMatchObject({ name: "Ningbo", locode: "CNNGB" });
    expect(index.canonicalLocode("NLRTM")).toBe("NLRTM");
    expect(index.port("nonsense")).toBeNull();
  });
});

describe("pluggable geocoder", () => {
  const down = externalGeocoder("test-geocoder", async () => {
    throw new Error("connection refused");
  });
  test("external failure -> geocoder_unavailable (503), codes still resolve", async () => {
    const err = await index.resolveWith("Hamburg", down).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("geocoder_unavailable");
    expect((await index.resolveWith("NLRTM", down)).locode).toBe("NLRTM");
    expect((await index.resolveWith("10,20", down)).kind).toBe("coordinates");
  });
  test("external answer is used; no answer -> 404", async () => {
    const fixed = externalGeocoder("fixed", async (text) =>
      text === "Somewhere 1"
        ? { ...index.resolve("1,2"), kind: "address", name: "Somewhere 1", source: "" }
        : null,
    );
    expect(await index.resolveWith("Somewhere 1", fixed)).toMatchObject({ kind: "address", source: "fixed" });
    const err = await index.resolveWith("Nowhere 2", fixed).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("location_not_found");
  });
  test("the offline geocoder is the default Geocoder", async () => {
    expect((await index.resolveWith("Hamburg", index.offline)).country_code).toBe("DE");
  });
});
