/**
 * The webhook dispatcher's HTTPS clients (api/webhooks/pinned-post.ts): Bun's fetch and the
 * node:https one the Deno start uses (api/runtime/deno-https.ts) keep one contract against a real
 * HTTPS receiver: connect to the address given, verify the certificate against the endpoint's name
 * with the CA given, send the Host header and bytes as given, hand back redirects and bodiless
 * answers as answers, and give up when the deadline aborts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { nodePinnedPost } from "../../api/runtime/deno-https.ts";
import { fetchPinned, type PinnedPost, type PinnedRequest } from "../../api/webhooks/pinned-post.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

let rx: Receiver;
let ca: string;
beforeAll(async () => {
  rx = await startReceiver();
  ca = readFileSync(rx.caFile, "utf8");
});
afterAll(() => rx.close());

const request = (path: string, over: Partial<PinnedRequest> = {}): PinnedRequest => ({
  url: `https://127.0.0.1:${rx.port}${path}`,
  body: '{"id":"evt_1"}',
  headers: { "content-type": "application/json", host: `hooks.test:${rx.port}` },
  signal: AbortSignal.timeout(10_000),
  serverName: "hooks.test",
  ca: [ca],
  ...over,
});

describe.each([
  ["Bun's fetch", fetchPinned],
  ["node:https (Deno)", nodePinnedPost],
] as Array<[string, PinnedPost]>)("%s", (name, post) => {
  const tag = name.startsWith("Bun") ? "bun" : "node";

  test("posts the bytes to the address, named as the endpoint; the answer's body reads", async () => {
    const res = await post(request(`/ok/${tag}`));
    expect([res.status, await res.text()]).toEqual([200, "ok"]);
    const [got] = await rx.waitFor(1, (r) => r.path === `/ok/${tag}`);
    expect(got!.raw.toString()).toBe('{"id":"evt_1"}');
    expect(got!.headers.host).toBe(`hooks.test:${rx.port}`);
  });

  test("a certificate not for the endpoint's name, or from another CA, is refused", async () => {
    await expect(post(request(`/ok/${tag}-name`, { serverName: "evil.test" }))).rejects.toThrow();
    await expect(post(request(`/ok/${tag}-ca`, { ca: undefined }))).rejects.toThrow();
    expect(rx.received.filter((r) => r.path.startsWith(`/ok/${tag}-`))).toEqual([]);
  });

  test("redirects and bodiless statuses are answers, never followed", async () => {
    const moved = await post(request(`/redirect/${tag}`));
    expect([moved.status, moved.headers.get("location")]).toEqual([302, "https://hooks.test/elsewhere"]);
    const empty = await post(request(`/status/204/${tag}`));
    expect(empty.status).toBe(204);
    const failed = await post(request(`/status/503/${tag}`));
    expect([failed.status, (await failed.text()).length]).toEqual([503, 5000]);
  });

  test("the deadline aborts an answer that never comes", async () => {
    const hung = post(request(`/hang/${tag}`, { signal: AbortSignal.timeout(300) }));
    await expect(hung).rejects.toThrow();
    rx.release(`/hang/${tag}`);
  });
});
