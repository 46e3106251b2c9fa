/**
 * Request bodies: one parser for every route. A declared length over the cap is refused before
 * access; any body is read up to the cap (chunked bodies declare none), then must be a JSON object
 * with no text a field cannot hold (storable-text.ts). Every refusal is a 400 in the product's
 * envelope (README: the spec's status list has no 413).
 */
import { Elysia } from "elysia";
import { readCapped } from "../../../common/capped-body.ts";
import { ApiError } from "../errors.ts";
import { unstorablePath } from "../storable-text.ts";
import type { PreRoutingContext } from "./request-target.ts";

const tooLarge = (cap: number) => new ApiError("validation", `Request body exceeds the ${cap}-byte limit.`);

/** Reads at most `cap` bytes of the body; more is a validation error, not a crash or an OOM. */
async function readCappedText(request: Request, cap: number): Promise<string> {
  return new TextDecoder().decode(await readCapped(request.body, cap, () => tooLarge(cap)));
}

/** The body as a JSON object, or the validation error saying what is wrong with it. */
export function parseBody(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  let body: unknown;
  let methodKey = "";
  try {
    // Elysia's validation message interpolates a wrong-typed value (`${value}`): an object with
    // its own toString (not a function, as JSON gives) makes that throw, which answered 500.
    body = JSON.parse(text, (key, value) => {
      if (key === "toString" || key === "valueOf") methodKey = key;
      return value;
    });
  } catch {
    throw new ApiError("validation", "Request body is not valid JSON.");
  }
  if (methodKey) throw new ApiError("validation", `Request body: no field may be named ${methodKey}.`);
  const unstorableAt = unstorablePath(text, body);
  if (unstorableAt !== null) {
    throw new ApiError(
      "validation",
      `Request body: ${unstorableAt} holds a NUL character or an unpaired surrogate, which no field accepts.`,
    );
  }
  // Every route takes an object; null, arrays and scalars would slip past optional-only schemas.
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError("validation", "Request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

export function jsonBody(id: string, maxBodyBytes: number) {
  return new Elysia({ name: `portolan-body-${id}` })
    .onRequest(({ request }: PreRoutingContext) => {
      if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes) throw tooLarge(maxBodyBytes);
    })
    .onParse({ as: "global" }, async ({ request }) => parseBody(await readCappedText(request, maxBodyBytes)));
}
