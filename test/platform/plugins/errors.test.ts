/** The errors plugin alone: every failure as the product's error envelope, never a bare 500. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { Elysia, t } from "elysia";
import { ApiError } from "../../../api/shared/errors.ts";
import { accessRules } from "../../../api/shared/plugins/access.ts";
import { errors } from "../../../api/shared/plugins/errors.ts";
import { type ProductId, product } from "../../../api/shared/products.ts";
import { describeValidation } from "../../../api/shared/validation-message.ts";
import { EngineError } from "../../../engine/errors.ts";
import { StorageUnavailableError } from "../../../storage/errors.ts";
import { type CapturedLogs, captureLogs } from "../../helpers/logs.ts";

const appFor = (id: ProductId) => {
  const def = product(id);
  const accessOf = accessRules(def, (path) =>
    path.startsWith("/public/") ? { auth: "none", limited: true, errors: "open" } : undefined,
  );
  const app = new Elysia()
    .use(errors(def, { accessOf, routes: (): ReadonlyArray<{ method: string; path: string }> => app.routes }))
    .get("/v1/api", () => {
      throw new ApiError("forbidden", "Not yours.");
    })
    .get("/public/v1/api", () => {
      throw new ApiError("notFound", "Nothing here.");
    })
    .get("/v1/engine", () => {
      throw new EngineError("no_route", "No sea route.", { reason: "budget_exhausted" });
    })
    .get("/v1/db", () => {
      throw new StorageUnavailableError({ cause: new Error("connection refused") });
    })
    .get("/v1/bug", () => {
      throw new TypeError("undefined is not an object");
    })
    .get("/v1/statement", () => {
      const cause = Object.assign(new Error("null value violates not-null"), { code: "23502" });
      throw new DrizzleQueryError(
        "insert into keys values ($1, $2)",
        ["pk_live_sensitive", "hash-sensitive"],
        cause,
      );
    })
    .get("/v1/items/:id", ({ query }) => query.limit, { query: t.Object({ limit: t.Integer() }) })
    .get("/v1/kinds", ({ query }) => query.kind, {
      query: t.Object({ kind: t.Union([t.Literal("port"), t.Literal("airport")]) }),
    })
    .get("/v1/speeds", ({ query }) => query.speed_knots, {
      query: t.Object({ from: t.String(), speed_knots: t.Optional(t.Number({ minimum: 3 })) }),
    })
    .get("/v1/plans/:id", ({ params }) => params.id, {
      params: t.Object({ id: t.String({ format: "uuid" }) }),
    })
    .post("/v1/plans", ({ body }) => body.cargo.length, {
      body: t.Object({ cargo: t.Array(t.Object({ weight_kg: t.Number({ exclusiveMinimum: 0 }) })) }),
    });
  return app;
};
const call = async (id: ProductId, path: string, init?: RequestInit) => {
  const res = await appFor(id).handle(new Request(`http://localhost${path}`, init));
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
};

let logged: CapturedLogs;
beforeAll(() => {
  logged = captureLogs("warn");
});
afterAll(() => logged.restore());

describe("errors", () => {
  test("an ApiError in each family's envelope, open paths in the open one", async () => {
    expect(await call("ocean", "/v1/api")).toEqual({
      status: 403,
      retryAfter: null,
      body: { ok: false, error: { code: "FORBIDDEN", message: "Not yours.", severity: "error" } },
    });
    expect((await call("rates", "/v1/api")).body).toEqual({
      error: { code: "forbidden", message: "Not yours." },
    });
    expect((await call("schedules", "/public/v1/api")).body).toEqual({ ok: false, message: "Nothing here." });
  });

  test("the engine's failures keep their code, message and extra fields", async () => {
    expect(await call("distance", "/v1/engine")).toEqual({
      status: 422,
      retryAfter: null,
      body: { error: { code: "no_route", message: "No sea route.", reason: "budget_exhausted" } },
    });
  });

  test("the database gone is a 503 that says when to come back, logged without the request's data", async () => {
    const { status, retryAfter, body } = await call("loading", "/v1/db");
    expect([status, retryAfter, body.error.code, body.error.retry_after_seconds]).toEqual([
      503,
      "2",
      "SERVICE_UNAVAILABLE",
      2,
    ]);
    expect(logged.lines.at(-1)).toMatchObject({
      msg: "database unavailable",
      product: "loading",
      method: "GET",
      route: "/v1/db",
      reason: "connection refused",
    });
  });

  test("anything else is a 500 that names nothing of the fault", async () => {
    const { status, body } = await call("air", "/v1/bug");
    expect([status, body]).toEqual([
      500,
      { error: { code: "server_error", message: "Internal error; retry shortly." } },
    ]);
  });

  test("a failed statement is logged by its text and codes, never its parameters", async () => {
    expect((await call("rates", "/v1/statement")).status).toBe(500);
    const line = logged.lines.at(-1)!;
    expect(line).toMatchObject({ msg: "internal error", route: "/v1/statement" });
    expect(line.err).toMatchObject({
      type: "Error",
      message: "Failed query: insert into keys values ($1, $2)",
      cause: { message: "null value violates not-null", code: "23502" },
    });
    expect(logged.text()).not.toContain("sensitive");
  });

  test("unknown paths are 404; a known path with another method 405", async () => {
    expect((await call("rates", "/v1/nothing")).body).toEqual({
      error: { code: "not_found", message: "No route GET /v1/nothing." },
    });
    expect((await call("rates", "/v1/items/7?limit=1", { method: "DELETE" })).body).toEqual({
      error: { code: "method_not_allowed", message: "Method DELETE is not allowed on /v1/items/7." },
    });
  });

  test("schema violations name the parameter as the client sent it and the form it takes", async () => {
    const message = async (path: string, init?: RequestInit) =>
      (await call("rates", path, init)).body.error.message;
    expect(await message("/v1/items/7?limit=x")).toBe(
      "Invalid query parameter `limit`: expected an integer.",
    );
    expect(await message("/v1/kinds?kind=volcano")).toBe(
      "Invalid query parameter `kind`: must be one of port, airport.",
    );
    expect(await message("/v1/speeds?speed_knots=12")).toBe(
      "Missing query parameter `from`: expected string.",
    );
    expect(await message("/v1/speeds?from=NLRTM&speed_knots=fast")).toBe(
      "Invalid query parameter `speed_knots`: expected a number.",
    );
    // Elysia refuses a numeric value out of range while decoding it, without naming the field.
    expect(await message("/v1/speeds?from=NLRTM&speed_knots=2")).toBe(
      "Invalid query parameter `speed_knots`: expected number to be greater or equal to 3.",
    );
    expect(await message("/v1/plans/nope")).toBe(
      "Invalid path parameter `id`: expected string to match 'uuid' format.",
    );
    const post = (body: unknown) => ({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(
      await message("/v1/plans", post({ cargo: [{ weight_kg: 1 }, { weight_kg: 2 }, { weight_kg: -1 }] })),
    ).toBe("Invalid body field `cargo[2].weight_kg`: expected number to be greater than 0.");
    expect(await message("/v1/plans", post({}))).toBe("Missing body field `cargo`: expected array.");
  });
});

test("describeValidation without details still names the part", () => {
  expect(describeValidation({ type: "body" })).toBe("Invalid body: does not match the schema.");
  expect(describeValidation({})).toBe("Invalid request: does not match the schema.");
});
