/** Answers a test carrier server gives, and the CarrierError a call ends with (TNT and CS clients). */
import { expect } from "bun:test";
import { CarrierError } from "../../ingest/carriers/connector.ts";

/** A JSON response (a string body is sent as is, to test malformed JSON). */
export const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    ...init,
    headers: { "Content-Type": "application/json", ...(init.headers as Record<string, string>) },
  });

/** The CarrierError `p` rejects with (fails the test when it resolves or throws something else). */
export async function failure(p: Promise<unknown>): Promise<CarrierError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CarrierError);
  return err as CarrierError;
}
