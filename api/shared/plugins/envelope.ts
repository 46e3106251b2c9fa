/**
 * Success bodies in the product's envelope (envelopes.ts), with the time taken since the request
 * arrived (distance's meta.took_ms). A handler's own Response goes out as it is.
 */
import { Elysia } from "elysia";
import { jsonResponse, jsonTextResponse, RenderedJson, successBody, successJson } from "../envelopes.ts";
import type { ProductDef } from "../products.ts";

export function envelope(def: ProductDef) {
  return new Elysia({ name: `portolan-envelope-${def.id}` })
    .decorate("startedAt", 0)
    .onRequest((context) => {
      context.startedAt = performance.now();
    })
    .mapResponse({ as: "global" }, ({ responseValue, set, startedAt }) => {
      if (responseValue instanceof Response) return responseValue;
      const took = Math.round((performance.now() - startedAt) * 1000) / 1000;
      // The rate headers go into this Response: left on `set`, Elysia would copy the finished
      // Response into another one to add them.
      const headers = set.headers as Record<string, string>;
      set.headers = {};
      const status = typeof set.status === "number" ? set.status : 200;
      if (responseValue instanceof RenderedJson)
        return jsonTextResponse(successJson(def, responseValue, took), status, headers);
      return jsonResponse(successBody(def, responseValue, took), status, headers);
    });
}
