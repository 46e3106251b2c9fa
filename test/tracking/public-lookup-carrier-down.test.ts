/**
 * The open lookup while a carrier cannot answer (down, failing, limiting us): 503 in the open
 * envelope with Retry-After, the carrier's own when it named one, never the 404 that says the
 * reference is unknown; a carrier that answers 404 still gets 404. Over real HTTP: a carrier server
 * answering what each case sets, and a carrier address nothing listens on (a killed process).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

let answer: { status: number; headers?: Record<string, string> } = { status: 503 };
const carrier = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () =>
    new Response(JSON.stringify({ message: "no" }), {
      status: answer.status,
      headers: { "content-type": "application/json", ...answer.headers },
    }),
});
/** A port that was bound and let go: connections to it are refused, as to a killed carrier. */
const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
const deadPort = dead.port;
dead.stop(true);

let p: TestPlatform;
beforeAll(async () => {
  p = await makePlatform({
    sandbox: false,
    carriers: [
      { scac: "HLCU", baseUrl: `http://127.0.0.1:${carrier.port}/HLCU`, timeoutMs: 2000 },
      { scac: "MAEU", baseUrl: `http://127.0.0.1:${deadPort}/MAEU`, timeoutMs: 2000 },
    ],
  });
});
afterAll(async () => {
  carrier.stop(true);
  await p.close();
});

async function lookup(ref: string) {
  const res = await p.call("ocean", `/public/v1/lookup/${ref}`);
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: (await res.json()) as Record<string, unknown>,
  };
}

test("a carrier answering 503 makes the lookup 503 with Retry-After", async () => {
  answer = { status: 503 };
  const got = await lookup("HLCU1662993");
  expect(got.status).toBe(503);
  expect(got.retryAfter).toBe("30");
  expect(got.body.ok).toBe(false);
  expect(String(got.body.message ?? JSON.stringify(got.body))).toMatch(/Hapag-Lloyd did not answer/);
});

test("a carrier limiting us passes its own Retry-After on", async () => {
  answer = { status: 429, headers: { "retry-after": "7" } };
  const got = await lookup("HLCU1662993");
  expect(got.status).toBe(503);
  expect(got.retryAfter).toBe("7");
});

test("a carrier nobody answers for (a killed process) is 503, not 404", async () => {
  const got = await lookup("MRKU0158387");
  expect(got.status).toBe(503);
  expect(got.retryAfter).toBe("30");
});

test("a carrier that does not know the reference is still 404", async () => {
  answer = { status: 404 };
  const got = await lookup("HLCU1662993");
  expect(got.status).toBe(404);
});
