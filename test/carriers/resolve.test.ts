import { beforeAll, expect, test } from "bun:test";
import { CarrierDirectory } from "../../ingest/carriers/resolve.ts";

let dir: CarrierDirectory;
beforeAll(async () => {
  dir = await CarrierDirectory.load();
});

test("an MSC box resolves to MSC, confirmed by its prefix", () => {
  expect(dir.resolve({ reference: "MSCU1234566", kind: "container" })).toEqual({
    carrier: { scac: "MSCU", name: "Mediterranean Shipping Company" },
    owner: "Mediterranean Shipping Company",
    ownerIsLessor: false,
    via: "container_prefix",
  });
});

test("an owner prefix missing from the carrier table still maps through the BIC owner", () => {
  const r = dir.resolve({ reference: "CSQU3054383", kind: "container" });
  expect(r.carrier?.scac).toBe("HLCU");
  expect(r.owner).toBe("Hapag Lloyd Container Line");
});

test("a leased box (Textainer, Triton) never confirms a carrier", () => {
  for (const reference of ["TGHU1234567", "TCNU1234567"]) {
    const r = dir.resolve({ reference, kind: "container" });
    expect(r.carrier).toBeNull();
    expect(r.ownerIsLessor).toBe(true);
    expect(r.via).toBe("none");
  }
  expect(dir.resolve({ reference: "TGHU1234567", kind: "container" }).owner).toBe("Textainer");
});

test("a SCAC hint wins over the prefix, and keeps the owner facts", () => {
  const r = dir.resolve({ reference: "TGHU1234567", kind: "container", scacHint: "maeu" });
  expect(r).toMatchObject({
    carrier: { scac: "MAEU" },
    via: "scac_hint",
    owner: "Textainer",
    ownerIsLessor: true,
  });
  expect(dir.resolve({ reference: "MSCU1234566", kind: "container", scacHint: "HLCU" }).carrier?.scac).toBe(
    "HLCU",
  );
});

test("an unknown SCAC hint is ignored", () => {
  expect(dir.resolve({ reference: "MSCU1234566", kind: "container", scacHint: "ZZZZ" }).via).toBe(
    "container_prefix",
  );
});

test("a B/L or booking prefix names its line", () => {
  expect(dir.resolve({ reference: "MEDU123456789", kind: "bill_of_lading" })).toEqual({
    carrier: { scac: "MSCU", name: "Mediterranean Shipping Company" },
    owner: null,
    ownerIsLessor: false,
    via: "bl_prefix",
  });
  expect(dir.resolve({ reference: "hlcu204812345", kind: "booking" }).carrier?.scac).toBe("HLCU");
  expect(dir.resolve({ reference: "123456789", kind: "bill_of_lading" }).via).toBe("none");
});
