/**
 * Every request's id: the X-Request-Id a trusted proxy sent (PORTOLAN_TRUST_PROXY=1) when it is a
 * plain token, else a new UUID. It is on the request context for the access log and error bodies,
 * and echoed in the X-Request-Id header of every answer.
 */
import { Elysia } from "elysia";

/** What an id taken from a proxy may hold: no spaces, quotes or control characters to log. */
const GIVEN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The context field, for plugins to `.use` for its type; the requestId plugin fills it in. */
export const requestContext = new Elysia({ name: "portolan-request-context" }).decorate("requestId", "");

export function requestId(trustProxy: boolean) {
  return new Elysia({ name: "portolan-request-id", seed: trustProxy })
    .use(requestContext)
    .onRequest((context) => {
      const given = trustProxy ? context.request.headers.get("x-request-id") : null;
      const id = given && GIVEN_ID.test(given) ? given : crypto.randomUUID();
      context.requestId = id;
      context.set.headers["x-request-id"] = id;
    });
}
