/**
 * A booking registered without its kind (the ocean lookup, compat without type=, the public
 * tracker) is told apart from a B/L by what the carrier says: the sandbox names a shipment's number
 * as TRD only once the B/L is issued, so before departure it is a booking alone. Sandbox process,
 * manual clock at 12:00 on the default epoch's day: the demo bookings have not sailed, the demo
 * B/Ls have (docs/sandbox-carrier.md).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type CompatWorld, compatGet, compatWorld, type Json } from "../compat/setup.ts";
import { bearer } from "../helpers/platform.ts";

const EPOCH = "2026-11-21T00:00:00Z";
let w: CompatWorld;

beforeAll(async () => {
  w = await compatWorld({ start: "2026-11-21T12:00:00Z", sandboxEnv: { SANDBOX_EPOCH: EPOCH } });
});
afterAll(async () => {
  await w.close();
});

/** The ocean lookup: registers (202), then answers once the first carrier call has been applied. */
async function lookup(ref: string): Promise<Json> {
  for (let i = 0; i < 400; i++) {
    const res = await w.p.call("ocean", `/v1/containers/lookup/${ref}`, bearer(w.key));
    if (res.status === 200) return ((await res.json()) as { data: Json }).data;
    expect(res.status).toBe(202);
    await Bun.sleep(25);
  }
  throw new Error(`${ref} never resolved`);
}

/** Each box of a B/L or booking, as its own lookup record. */
const boxes = async (data: Json) =>
  Promise.all(Object.keys(data.child_containers as Json).map((box) => lookup(box)));

describe("the ocean lookup", () => {
  test("a booking looked up before it was added is a booking, its boxes carry the booking number", async () => {
    const data = await lookup("MEDU200000182");
    expect(data.identifier_type).toBe("booking");
    expect(data.booking_number).toBe("MEDU200000182");
    expect(data.bl_number).toBeNull();
    expect(data.carrier).toBe("Mediterranean Shipping Company");
    const own = await boxes(data);
    expect(own.length).toBe(4);
    for (const box of own) expect(box.booking_number).toBe("MEDU200000182");
  });

  test("a B/L looked up stays a bill of lading; the carrier names its booking too", async () => {
    const data = await lookup("MAEU200000630");
    expect(data.identifier_type).toBe("bill_of_lading");
    expect(data.bl_number).toBe("MAEU200000630");
    expect(data.booking_number).toBe("MAEU200000630");
    for (const box of await boxes(data)) expect(box.bl_number).toBe("MAEU200000630");
  });

  test("an explicit B/L keeps its kind even before issue, with the booking the carrier names", async () => {
    const res = await w.p.call("ocean", "/v1/containers", {
      method: "POST",
      body: JSON.stringify({ identifier: "ONEY200015838", identifier_type: "bill_of_lading" }),
      ...bearer(w.key, { "content-type": "application/json" }),
    });
    expect(res.status).toBe(201);
    const data = await lookup("ONEY200015838");
    expect(data.identifier_type).toBe("bill_of_lading");
    expect(data.bl_number).toBe("ONEY200015838");
    expect(data.booking_number).toBe("ONEY200015838");
  });
});

describe("the public tracker", () => {
  const open = async (ref: string) => {
    const res = await w.p.call("ocean", `/public/v1/lookup/${ref}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    return (body.data ?? body) as Json;
  };

  test("a booking says booking_number, a B/L bill_of_lading, each with the line's name", async () => {
    const booking = await open("HLCU200118785");
    expect(booking.identifier_type).toBe("booking_number");
    expect(booking.carrier).toBe("Hapag-Lloyd");
    const bl = await open("CMDU200128185");
    expect(bl.identifier_type).toBe("bill_of_lading");
    expect(bl.carrier).toBe("CMA CGM");
  });
});

describe("compat without type=", () => {
  const meta = (body: Json) => (body.data as Json).metadata as Json;

  test("a booking is answered as BK, a B/L as BL", async () => {
    const booking = await compatGet(w, { number: "CMDU200000000" });
    expect(booking.status).toBe(200);
    expect(meta(booking.body).type).toBe("BK");
    const bl = await compatGet(w, { number: "ONEY200000002" });
    expect(bl.status).toBe(200);
    expect(meta(bl.body).type).toBe("BL");
  });
});
