import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constantTimeEqual, sha256Hex } from "../../api/shared/crypto.ts";
import { bearer, ManualClock, makePlatform } from "../helpers/platform.ts";

test("keys carry the product prefix and only their SHA-256 is stored", async () => {
  const dir = mkdtempSync(join(tmpdir(), "portolan-keys-"));
  const database = join(dir, "db.sqlite");
  const p = await makePlatform({ database });
  const { keys } = await p.tenant();
  expect(keys.ocean).toMatch(/^oc_[0-9A-Za-z]{32}$/);
  expect(keys.air).toMatch(/^ac_/);
  expect(keys.schedules).toMatch(/^ss_/);
  expect(keys.loading).toMatch(/^lp_/);
  expect(keys.rates).toMatch(/^rt_/);
  expect(keys.distance).toMatch(/^ds_/);
  await p.close();
  const raw = new Database(database, { readonly: true });
  const dump = JSON.stringify(raw.query("SELECT * FROM api_keys").all());
  for (const key of Object.values(keys)) {
    expect(dump).not.toContain(key);
    expect(dump).toContain(await sha256Hex(key));
  }
  raw.close();
  rmSync(dir, { recursive: true, force: true });
});

test("revoked and expired keys answer 401", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({}, clock.now);
  const { orgId, keys } = await p.tenant();
  const shortLived = await p.accounts.createKey(orgId, "ocean", {
    expiresAt: new Date(clock.t + 60_000).toISOString(),
  });
  expect((await p.call("ocean", "/v1/account", bearer(shortLived.key))).status).toBe(200);
  clock.advance(60_000);
  expect((await p.call("ocean", "/v1/account", bearer(shortLived.key))).status).toBe(401);

  expect((await p.call("ocean", "/v1/account", bearer(keys.ocean))).status).toBe(200);
  expect(await p.accounts.revokeKey(keys.ocean)).toBe(true);
  expect((await p.call("ocean", "/v1/account", bearer(keys.ocean))).status).toBe(401);
  await p.close();
});

test("self-service keys: issue, list without secrets, revoke; another account's key id answers 404", async () => {
  const p = await makePlatform();
  const alice = await p.tenant({ name: "alice" });
  const bob = await p.tenant({ name: "bob" });
  const created = await p.call("ocean", "/v1/account/keys", {
    method: "POST",
    body: JSON.stringify({ label: "ci", expires_in_days: 30 }),
    ...bearer(alice.keys.ocean, { "content-type": "application/json" }),
  });
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as {
    data: { id: string; key: string; label: string; expires_at: string };
  };
  expect(data.key).toMatch(/^oc_/);
  expect(data.label).toBe("ci");
  expect((await p.call("ocean", "/v1/account", bearer(data.key))).status).toBe(200);

  const list = JSON.stringify(
    await (await p.call("ocean", "/v1/account/keys", bearer(alice.keys.ocean))).json(),
  );
  expect(list).toContain(data.id);
  expect(list).not.toContain(data.key);
  const bobList = JSON.stringify(
    await (await p.call("ocean", "/v1/account/keys", bearer(bob.keys.ocean))).json(),
  );
  expect(bobList).not.toContain(data.id);

  const foreign = await p.call("ocean", `/v1/account/keys/${data.id}`, {
    method: "DELETE",
    ...bearer(bob.keys.ocean),
  });
  expect(foreign.status).toBe(404);
  expect((await p.call("ocean", "/v1/account", bearer(data.key))).status).toBe(200);
  const never = await p.call("ocean", `/v1/account/keys/${crypto.randomUUID()}`, {
    method: "DELETE",
    ...bearer(bob.keys.ocean),
  });
  expect(never.status).toBe(404);
  // Alike but for the id asked and each answer's own request id.
  const unlike = (text: string) =>
    text.replace(/No key [^ ]+/, "No key ?").replace(/"request_id":"[^"]+"/, "");
  expect(unlike(await foreign.text())).toBe(unlike(await never.text()));

  const own = await p.call("ocean", `/v1/account/keys/${data.id}`, {
    method: "DELETE",
    ...bearer(alice.keys.ocean),
  });
  expect(await own.json()).toMatchObject({ ok: true, data: { id: data.id, revoked: true } });
  expect((await p.call("ocean", "/v1/account", bearer(data.key))).status).toBe(401);
  await p.close();
});

test("a key lists and manages only its own product's keys; another product's key id answers 404", async () => {
  const p = await makePlatform();
  const { orgId, keys } = await p.tenant();
  const ids = Object.fromEntries(
    (await p.accounts.listKeys(orgId)).map((k) => [k.product, k.id] as const),
  ) as Record<keyof typeof keys, string>;

  for (const product of ["ocean", "air", "schedules", "loading", "rates", "distance"] as const) {
    const res = await p.call(product, "/v1/account/keys", bearer(keys[product]));
    const { data } = (await res.json()) as { data: { items: Array<{ id: string; product: string }> } };
    expect(data.items.map((k) => [k.product, k.id])).toEqual([[product, ids[product]]]);
  }

  // The distance key (the one pasted into the map page) cannot revoke the rates key.
  const foreign = await p.call("distance", `/v1/account/keys/${ids.rates}`, {
    method: "DELETE",
    ...bearer(keys.distance),
  });
  expect(foreign.status).toBe(404);
  expect((await p.call("rates", "/v1/account", bearer(keys.rates))).status).toBe(200);

  // The family key the air host accepts reads air data, but manages no air keys there.
  const family = await p.call("air", "/v1/account/keys", bearer(keys.ocean));
  expect(family.status).toBe(403);
  const issued = await p.call("air", "/v1/account/keys", {
    method: "POST",
    body: "{}",
    ...bearer(keys.ocean, { "content-type": "application/json" }),
  });
  expect(issued.status).toBe(403);
  expect((await p.accounts.listKeys(orgId, "air")).length).toBe(1);
  const revoke = await p.call("air", `/v1/account/keys/${ids.air}`, {
    method: "DELETE",
    ...bearer(keys.ocean),
  });
  expect(revoke.status).toBe(403);
  expect((await p.call("air", "/v1/account", bearer(keys.air))).status).toBe(200);
  await p.close();
});

test("entitlements expire with the clock", async () => {
  const clock = new ManualClock();
  const p = await makePlatform({}, clock.now);
  const org = await p.accounts.createOrg("e");
  expect(await p.accounts.entitlement(org.id, "ocean")).toBe("none");
  await p.accounts.setEntitlement(org.id, "ocean", new Date(clock.t + 1000).toISOString());
  expect(await p.accounts.entitlement(org.id, "ocean")).toBe("active");
  clock.advance(1000);
  expect(await p.accounts.entitlement(org.id, "ocean")).toBe("expired");
  await p.close();
});

test("constantTimeEqual decides by content, not by prefix", () => {
  expect(constantTimeEqual("abc", "abc")).toBe(true);
  expect(constantTimeEqual("abc", "abd")).toBe(false);
  expect(constantTimeEqual("abc", "abcd")).toBe(false);
  expect(constantTimeEqual("", "")).toBe(true);
});
