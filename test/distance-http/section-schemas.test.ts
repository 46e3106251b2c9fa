/**
 * The distance document's sections per mode, against real answers: for each mode's section in a
 * real route or multimodal answer, the answer check (test/helpers/answer-check.ts) passes it as
 * sent, and throws when one of the section's fields is missing or a field its mode lacks is added.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { checkBody, type Doc } from "../helpers/answer-check.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { chainClient } from "./chain-client.ts";

type Json = Record<string, unknown>;
type Section = Json & { transport_mode: string };
type Answer = { data: { route: { sections: Section[] } }; meta: Json };

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
let doc: () => Doc;
/** The fields each mode's section must carry, as the document lists them. */
let required: (mode: string) => string[];
beforeAll(async () => {
  ({ p, get } = await chainClient("sections"));
  const served = await (await p.call("distance", "/docs/json")).json();
  doc = () => served as never;
  const schemas = served.components.schemas as Record<string, { required: string[] }>;
  required = (mode) => schemas[`${mode[0]}${mode.slice(1).toLowerCase()}Section`]!.required;
});
afterAll(() => p.close());

/** A query whose chosen chain has a section of each mode in `modes`. */
const ASKED: Array<[string, string[]]> = [
  ["/v1/distance/route?from=NLRTM&to=DEMUC&mode=RAIL", ["ROAD", "RAIL"]],
  ["/v1/distance/route?from=FRA&to=JFK&mode=AIR", ["AIR"]],
  ["/v1/distance/route?from=NLRTM&to=DEDUI&mode=RIVER", ["RIVER"]],
  ["/v1/distance/multimodal?from=NLRTM&to=USNYC&modes=SEA", ["SEA"]],
];

/** The body against the document's 200 schema of the path's route (headers are not this test's). */
const check = (path: string, body: unknown) =>
  checkBody(path, doc(), new URL(path, "http://localhost").pathname, "get", 200, body);

test.each(ASKED)("%s: each section's missing or extra field fails the check", async (path, modes) => {
  const res = await get(path);
  expect(res.status).toBe(200);
  const answer = res.body as unknown as Answer;
  check(path, answer);
  for (const mode of modes) {
    const i = answer.data.route.sections.findIndex((s) => s.transport_mode === mode);
    expect(i, mode).toBeGreaterThanOrEqual(0);
    // Optional fields (a route point where the end is known, a path when asked) may be left out.
    const own = Object.keys(answer.data.route.sections[i]!).filter(
      (k) => k !== "transport_mode" && required(mode).includes(k),
    );
    expect(own.length, mode).toBeGreaterThan(5);
    for (const field of own) {
      const broken = structuredClone(answer);
      delete broken.data.route.sections[i]![field];
      expect(() => check(path, broken), `${mode} without ${field}`).toThrow("does not match");
    }
    const extra = structuredClone(answer);
    extra.data.route.sections[i]!.not_a_field = 1;
    expect(() => check(path, extra), `${mode} with an extra field`).toThrow("does not match");
  }
});
