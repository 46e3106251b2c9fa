/** The pieces with rules of their own: address classification, ladder parsing, sealed secrets, signatures. */
import { describe, expect, test } from "bun:test";
import { parseSchedule, webhookConfig } from "../../api/webhooks/config.ts";
import { newSecret, SecretBox } from "../../api/webhooks/secrets.ts";
import { checkLoopback, checkTarget, isBlockedAddress, TargetRefused } from "../../api/webhooks/ssrf.ts";
import { sign, verify } from "../../api/webhooks/verify.ts";

describe("isBlockedAddress", () => {
  test.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::",
    "::1",
    "0:0:0:0:0:0:0:1",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe", // 169.254.169.254 mapped, hex form
    "64:ff9b::10.0.0.1",
    "2002:0a00:0001::1", // 6to4 of 10.0.0.1
    "2001:db8::1",
    // Webhook address policy: the IPv6 ranges.
    "100::1", // discard-only 100::/64
    "100::ffff:1",
    "::ffff:0:7f00:1", // IPv4-translated 127.0.0.1 (RFC 2765)
    "::ffff:0:10.0.0.1",
    "::ffff:0:a9fe:a9fe", // IPv4-translated 169.254.169.254
    "2001:0:4136:e378:8000:63bf:f5ff:fffe", // Teredo, client 10.0.0.1 (last 32 bits XOR ffffffff)
    "2001:0:7f00:1:8000:63bf:f7f7:f7f7", // Teredo, server 127.0.0.1, client 8.8.8.8
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo with public addresses: all Teredo is refused
    "2001:2::1", // benchmarking 2001:2::/48 (IETF protocol assignments 2001::/23)
    "64:ff9b:1::a00:1", // local-use NAT64 64:ff9b:1::/48
    "64:ff9b:1:0:0:0:808:808", // local-use NAT64 even with a public IPv4 in the low bits
    "::10.0.0.1", // IPv4-compatible (deprecated)
    "::8.8.8.8", // IPv4-compatible, public IPv4: the form itself is refused
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2002:7f00:1::1", // 6to4 of 127.0.0.1
    "fec0::1", // site-local (deprecated)
    "fe80::1%eth0",
    "febf::1",
    "fdff:ffff::1",
    "ff0e::1",
    "3fff::1", // documentation 3fff::/20 (RFC 9637)
    "3fff:fff::1",
    "5f00::1", // SRv6 SIDs
    "4000::1", // unassigned, outside global unicast 2000::/3
    "e000::1",
    "0.1.2.3", // "this" network 0/8
    "100.100.100.100", // CGNAT
    "198.19.255.255", // benchmarking 198.18/15
    "240.0.0.1", // reserved 240/4
    "192.0.0.8",
    "192.0.2.1",
    "192.88.99.1",
    "198.51.100.1",
    "203.0.113.1",
  ])("%s is refused", (ip) => expect(isBlockedAddress(ip)).toBe(true));

  test.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "169.255.0.1",
    "2606:2800:220:1:248:1893:25c8:1946",
    "::ffff:8.8.8.8",
    "2002:0808:0808::1",
    "::ffff:0:8.8.8.8", // IPv4-translated public address
    "64:ff9b::808:808", // NAT64 well-known prefix, public IPv4
    "2001:200::1", // just past the IETF 2001::/23 block (a real allocation)
    "2001:4860:4860::8888",
    "2a00:1450:4001:81b::200e",
    "3fff:1000::1", // just past 3fff::/20
  ])("%s is allowed", (ip) => expect(isBlockedAddress(ip)).toBe(false));

  test.each(["localhost", "example.com", "1.2.3", "1.2.3.256", "::1::", "12345::", "[::1]"])(
    "%s is not an IP literal",
    (v) => expect(isBlockedAddress(v)).toBeNull(),
  );
});

describe("checkTarget", () => {
  const fixed = (answers: Record<string, string[]>) => async (host: string) => {
    const a = answers[host];
    if (!a) throw Object.assign(new Error("nx"), { code: "ENOTFOUND" });
    return a;
  };
  test("a name with one private answer among public ones is refused", async () => {
    const resolve = fixed({ "mixed.test": ["93.184.216.34", "10.0.0.5"] });
    await expect(checkTarget(new URL("https://mixed.test/"), resolve, false)).rejects.toBeInstanceOf(
      TargetRefused,
    );
    expect(await checkTarget(new URL("https://mixed.test/"), resolve, true)).toEqual([
      "93.184.216.34",
      "10.0.0.5",
    ]);
  });
  test("an unresolvable name is refused, allowed or not", async () => {
    await expect(checkTarget(new URL("https://nx.test/"), fixed({}), true)).rejects.toThrow(
      "nx.test does not resolve (ENOTFOUND)",
    );
  });
  test("bracketed IPv6 literals are checked as addresses", async () => {
    await expect(checkTarget(new URL("https://[::1]:8443/"), async (h) => [h], false)).rejects.toThrow("::1");
  });
});

describe("checkLoopback (a local listener's endpoint)", () => {
  const literal = async (h: string) => [h];
  test.each(["127.0.0.1", "127.8.9.10", "[::1]", "[::ffff:127.0.0.1]"])(
    "%s is this machine",
    async (host) => {
      expect(await checkLoopback(new URL(`https://${host}:8443/`), literal)).toHaveLength(1);
    },
  );
  test.each([
    "10.0.0.5",
    "192.168.1.1",
    "169.254.169.254",
    "93.184.216.34",
    "[::2]",
    "[fe80::1]",
    "[::ffff:10.0.0.1]",
  ])("%s is refused", async (host) => {
    await expect(checkLoopback(new URL(`https://${host}/`), literal)).rejects.toBeInstanceOf(TargetRefused);
  });
  test("a name with one answer off this machine is refused", async () => {
    const resolve = async () => ["127.0.0.1", "10.0.0.5"];
    await expect(checkLoopback(new URL("https://localhost/"), resolve)).rejects.toThrow(
      "10.0.0.5, not loopback",
    );
  });
});

describe("configuration", () => {
  test("the ladder takes units and defaults to Svix's schedule", () => {
    expect(parseSchedule("0,500ms,5s,5m,2h,1d")).toEqual([0, 500, 5000, 300_000, 7_200_000, 86_400_000]);
    expect(webhookConfig({}).scheduleMs).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(() => parseSchedule("0,soon")).toThrow("PORTOLAN_WEBHOOK_SCHEDULE");
  });
  test("pinned answers and flags", () => {
    const c = webhookConfig({
      PORTOLAN_WEBHOOK_RESOLVE: "Hooks.Test=127.0.0.1|::1, api.test=93.184.216.34",
      PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1",
      PORTOLAN_WEBHOOK_DISABLE_AFTER_HOURS: "0.5",
    });
    expect(c.resolve).toEqual({ "hooks.test": ["127.0.0.1", "::1"], "api.test": ["93.184.216.34"] });
    expect(c.allowPrivate).toBe(true);
    expect(c.disableAfterMs).toBe(1_800_000);
  });
});

describe("SecretBox", () => {
  const key = (byte: number) => btoa(String.fromCharCode(...new Uint8Array(32).fill(byte)));

  test("seals under the first key, opens under any, and binds the ciphertext to its endpoint", async () => {
    const old = await SecretBox.create({ keys: `k1:${key(1)}`, production: true });
    const secret = newSecret();
    const sealed = await old.seal(secret, "ep-1");
    expect(sealed.keyId).toBe("k1");
    expect(sealed.blob).not.toContain(secret.slice(6, 20));
    const rotated = await SecretBox.create({ keys: `k2:${key(2)},k1:${key(1)}`, production: true });
    expect(rotated.currentKeyId).toBe("k2");
    expect(await rotated.open(sealed, "ep-1")).toBe(secret);
    await expect(rotated.open(sealed, "ep-2")).rejects.toThrow();
    const resealed = await rotated.seal(secret, "ep-1");
    expect(resealed.keyId).toBe("k2");
    const dropped = await SecretBox.create({ keys: `k2:${key(2)}`, production: true });
    await expect(dropped.open(sealed, "ep-1")).rejects.toThrow('"k1" is not in PORTOLAN_WEBHOOK_KEYS');
    expect(await dropped.open(resealed, "ep-1")).toBe(secret);
  });

  test("malformed keys are refused; production needs keys", async () => {
    await expect(SecretBox.create({ keys: "k1:short", production: false })).rejects.toThrow("32 bytes");
    await expect(SecretBox.create({ keys: key(1), production: false })).rejects.toThrow("id:base64");
    await expect(SecretBox.create({ keys: null, production: true })).rejects.toThrow("NODE_ENV=production");
  });
});

describe("verify", () => {
  test("accepts exactly the signed bytes, in any byte container", async () => {
    const secret = newSecret();
    const body = '{"id":"d1","type":"ping","occurred_at":"2026-11-21T00:00:00.000Z","data":{"é":1}}';
    const header = await sign(body, secret);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(body, header, secret)).toBe(true);
    expect(await verify(new TextEncoder().encode(body), header, secret)).toBe(true);
    expect(await verify(new TextEncoder().encode(body).buffer as ArrayBuffer, header, secret)).toBe(true);
    expect(await verify(JSON.stringify(JSON.parse(body), null, 1), header, secret)).toBe(false);
    expect(await verify(body, header.toUpperCase(), secret)).toBe(false);
    expect(await verify(body, header.slice(7), secret)).toBe(false);
    expect(await verify(body, null, secret)).toBe(false);
    expect(await verify(body, header, newSecret())).toBe(false);
  });
});
