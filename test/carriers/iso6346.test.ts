import { expect, test } from "bun:test";
import {
  checkDigit,
  looksLikeContainer,
  validateContainerNumber,
  withCheckDigit,
} from "../../ingest/iso6346.ts";

test("known-good numbers pass", () => {
  for (const n of ["CSQU3054383", "MSCU1234566", "APZU4812090"]) {
    expect(validateContainerNumber(n)).toEqual({ ok: true, number: n });
  }
  expect(checkDigit("CSQU305438")).toBe(3);
  expect(withCheckDigit("APZU481209")).toBe("APZU4812090");
});

test("input is trimmed, upper-cased and stripped of spaces and dashes", () => {
  expect(validateContainerNumber("  csqu 305438-3 ")).toEqual({ ok: true, number: "CSQU3054383" });
});

test("a wrong check digit suggests the corrected number", () => {
  const r = validateContainerNumber("MSCU1234560");
  expect(r).toMatchObject({ ok: false, reason: "check_digit", suggestion: "MSCU1234566" });
  if (!r.ok) expect(r.message).toContain("did you mean MSCU1234566?");
});

test("shape and category errors", () => {
  expect(validateContainerNumber("MSC1234566")).toMatchObject({ ok: false, reason: "format" });
  expect(validateContainerNumber("MSCX1234566")).toMatchObject({ ok: false, reason: "category" });
  expect(validateContainerNumber("")).toMatchObject({ ok: false, reason: "format" });
});

test("looksLikeContainer", () => {
  expect(looksLikeContainer("CSQU3054383")).toBe(true);
  expect(looksLikeContainer("csqu305438")).toBe(true);
  expect(looksLikeContainer("MAEU123456789")).toBe(false);
  expect(looksLikeContainer("MEDU1234")).toBe(false);
});
