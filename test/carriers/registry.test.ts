/**
 * The connector registry: each configured carrier becomes its kind's connector (DCSA when no kind is
 * given), asked over a real local HTTP server; an unknown kind stops the start naming the known ones.
 */
import { afterAll, expect, test } from "bun:test";
import { DcsaConnector } from "../../ingest/carriers/connector.ts";
import { carrierConnectors } from "../../ingest/carriers/registry.ts";
import { json } from "../helpers/carrier-answers.ts";

const asked: string[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    asked.push(new URL(req.url).pathname);
    return json("[]");
  },
});
afterAll(() => server.stop(true));
const baseUrl = (scac: string) => `http://127.0.0.1:${server.port}/${scac}`;

test.each([
  ["no kind: DCSA", { scac: "MAEU", baseUrl: baseUrl("MAEU") }],
  ["kind dcsa", { scac: "HLCU", baseUrl: baseUrl("HLCU"), kind: "dcsa" }],
])("%s: the carrier's connector, keyed by its SCAC, asks its own base", async (_, config) => {
  const connectors = carrierConnectors([config], { now: Date.now });
  const connector = connectors.get(config.scac)!;
  expect([...connectors.keys()]).toEqual([config.scac]);
  expect(connector).toBeInstanceOf(DcsaConnector);
  expect(await connector.fetchEvents({ kind: "container", value: "MSCU1234565" })).toEqual([]);
  expect(asked.at(-1)).toBe(`/${config.scac}/v2/events`);
});

test.each(["ais", "constructor", "__proto__", "toString", ""])(
  "kind %p is no connector kind: the start stops naming the known ones",
  (kind) => {
    expect(() =>
      carrierConnectors([{ scac: "MAEU", baseUrl: baseUrl("MAEU"), kind }], { now: Date.now }),
    ).toThrow(`carrier MAEU: unknown connector kind "${kind}" (known: dcsa)`);
  },
);
