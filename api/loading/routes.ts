/**
 * The load-plan routes: create (plans at once), list, read, change (re-plans when the input
 * changes) and delete plans, and each unit's picture as SVG. Writes need the load-plan entitlement
 * (as registering a webhook does); reads need a key. Another organisation's plan answers 404 like
 * one that never existed. Each write and its event commit in one transaction. Plans and unit
 * pictures run on the route workers (engine/sea/pool.ts, lanes "loadplan" and "picture"), not on
 * the event loop all six products share: a large plan is ~0.5 s of WASM, a unit of a thousand
 * pieces ~20 ms of drawing. Pictures are kept once drawn (pictures.ts). docs/loadplan.md, "The
 * load-plan product".
 */
import { Elysia, type Static, t } from "elysia";
import { timeOrderedId } from "../../common/ids.ts";
import { once } from "../../engine/artifacts.ts";
import { LoadPlanError } from "../../engine/loadplan/errors.ts";
import { LoadPlanner } from "../../engine/loadplan/planner.ts";
import { drawUnit, pictureOf } from "../../engine/loadplan/svg.ts";
import type { LoadPlanResult } from "../../engine/loadplan/types.ts";
import { Overloaded, RoutePool } from "../../engine/sea/pool.ts";
import { routePlanner } from "../../engine/services.ts";
import type { LoadPlanRow } from "../../storage/load-plans.ts";
import type { Principal } from "../accounts/repo.ts";
import { ApiError } from "../shared/errors.ts";
import { uuidPath } from "../shared/openapi/parameters.ts";
import { listPage, routeAnswers, strict } from "../shared/openapi/responses.ts";
import { limitQuery, pageAfter, pageLimit, pageOf } from "../shared/paging.ts";
import type { FullPlatform } from "../shared/platform.ts";
import { caller, entitled } from "../shared/plugins/access.ts";
import { product } from "../shared/products.ts";
import { LoadPlan, LoadPlanSummary } from "./schemas.ts";

const LOADING = product("loading");

import { appendPlanEvents, planCreated, planDeleted, planUpdated } from "./events.ts";
import {
  apiErrorOf,
  CreateBody,
  engineInput,
  inputOf,
  PatchBody,
  type PlanInputJson,
  PRINTABLE,
  REFERENCE_MAX,
} from "./input.ts";
import { pictureKey, UnitPictures } from "./pictures.ts";
import { planSummary, planView, resultOf, statusOf } from "./view.ts";

const planners = new Map<string, Promise<LoadPlanner>>();

/**
 * router.wasm of the build directory on this thread, loaded on the first plan (the other products
 * do not need it): used only when PORTOLAN_ROUTE_WORKERS=0 plans everything on the serving thread.
 */
export const loadPlannerFor = (buildDir: string) =>
  once(planners, buildDir, () => LoadPlanner.fromBuildDir(buildDir));

/** Times a change is retried when another one committed between its read and its write. */
const WRITE_ATTEMPTS = 3;
const SVG_FILE = /^([1-9]\d{0,3})\.svg$/;
/**
 * Plan ids are UUIDs (common/ids.ts): anything else names no plan, and never reaches the database
 * (PostgreSQL refuses a NUL in a text parameter).
 */
const PLAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const same = (a: PlanInputJson, b: PlanInputJson) => JSON.stringify(a) === JSON.stringify(b);

type Headers = { headers: Record<string, unknown> };
type PlanTools = ReturnType<typeof planTools>;

/** What the handlers share: the store, plan and picture work off the event loop, the 404. */
function planTools(platform: FullPlatform) {
  const { storage, config } = platform;
  const base = config.publicUrls.loading;
  const iso = () => new Date(platform.now()).toISOString();
  const notFound = (id: string) => new ApiError("notFound", `No load plan ${id} on this account.`);
  const pictures = new UnitPictures(config.pictureCacheBytes);

  /**
   * On the process's route pool (the distance product's workers), or on this thread with
   * PORTOLAN_ROUTE_WORKERS=0.
   */
  const offLoop = async <T>(pooled: (pool: RoutePool) => Promise<T>, here: () => Promise<T>): Promise<T> => {
    const pool = config.routes.workers === 0 ? null : await routePlanner(config.buildDir, config.routes);
    return pool instanceof RoutePool ? pooled(pool) : here();
  };
  /** A refused input answers in the product's envelope; a full pool sheds as routes do. */
  const shed = (set: Headers) => (err: unknown) => {
    if (err instanceof LoadPlanError) throw apiErrorOf(err);
    if (err instanceof Overloaded) set.headers["retry-after"] = String(err.retryAfterSeconds);
    throw err;
  };

  const plan = (input: PlanInputJson, set: Headers): Promise<LoadPlanResult> =>
    offLoop(
      (pool) => pool.planLoad(engineInput(input)),
      async () => (await loadPlannerFor(config.buildDir)).plan(engineInput(input)),
    ).catch(shed(set));

  /** Unit n of the plan (1 to the units' count; else 404) as SVG bytes, kept once drawn. */
  const picture = (row: LoadPlanRow, n: number, file: string) => {
    const units = resultOf(row).units;
    if (!(n >= 1 && n <= units.length)) {
      throw new ApiError(
        "notFound",
        `No unit ${file} in load plan ${row.id}: it has ${units.length} (1.svg to ${units.length}.svg).`,
      );
    }
    const unit = pictureOf(
      units[n - 1]!,
      row.input.items as Array<{ id?: string }>,
      `${row.name}: unit ${n} of ${units.length}`,
    );
    return pictures.draw(pictureKey(row.id, row.version, n, "svg"), () =>
      offLoop(
        (pool) => pool.drawUnit(unit),
        async () => drawUnit(unit),
      ),
    );
  };

  const find = async (orgId: string, id: string): Promise<LoadPlanRow> => {
    const row = PLAN_ID.test(id) ? await storage.loadPlans.get(orgId, id) : undefined;
    if (!row) throw notFound(id);
    return row;
  };

  /** Committed events wake an idle dispatcher, which then delivers them now rather than at its next sweep. */
  const eventsCommitted = (raised: number) => {
    if (raised > 0) platform.tracking.wakeups.signal("webhooks.outbox");
  };

  return { platform, storage, base, iso, notFound, pictures, shed, plan, picture, find, eventsCommitted };
}

const svgResponse = (bytes: Uint8Array<ArrayBuffer>) =>
  new Response(bytes, {
    headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "private, no-cache" },
  });

const tags = ["load plans"];
const idParams = t.Object({ id: uuidPath("The plan's id") });

const createOptions = {
  body: CreateBody,
  detail: {
    ...routeAnswers(LOADING, { 201: { description: "The stored plan", data: LoadPlan } }, [503]),
    summary: "Plan a load and store the plan",
    description:
      "Plans at once (the request returns when the plan is made) and stores input and result. Units used, each piece's position (mm from the front wall, the left side and the floor), size as placed and orientation, load order and wall, volume and weight utilisation, centre of gravity per unit, unplaced pieces with the reason, and a link to each unit's SVG. Needs the load-plan entitlement. docs/loadplan.md, The load-plan product.",
    tags,
  },
};

const listQuery = t.Object({
  limit: limitQuery(),
  cursor: t.Optional(t.String({ description: "next_cursor of the previous page" })),
  reference: t.Optional(
    t.String({
      maxLength: REFERENCE_MAX,
      pattern: PRINTABLE,
      description: "only plans with this reference",
    }),
  ),
});
const listOptions = {
  query: listQuery,
  detail: {
    ...routeAnswers(LOADING, {
      200: { description: "A page of plans", data: listPage(LoadPlanSummary) },
    }),
    summary: "The account's load plans, last changed first (no placements)",
    tags,
  },
};

const readOptions = {
  params: idParams,
  detail: {
    ...routeAnswers(LOADING, { 200: { description: "The plan", data: LoadPlan } }),
    summary: "One load plan with its input and every placement",
    tags,
  },
};

const changeOptions = {
  params: idParams,
  body: PatchBody,
  detail: {
    ...routeAnswers(LOADING, { 200: { description: "The plan as changed", data: LoadPlan } }),
    summary: "Change a load plan (re-plans when the input changes)",
    description:
      "Any field of the create body; an input field replaces the stored one whole (items replaces every item), null resets an optional one to its default. A change of input plans again. Every change adds 1 to version and raises plan_updated; a body changing nothing answers the plan as it is. Needs the load-plan entitlement.",
    tags,
  },
};

const deleteOptions = {
  params: idParams,
  detail: {
    ...routeAnswers(LOADING, {
      200: { description: "Deleted", data: strict({ id: t.String(), deleted: t.Literal(true) }) },
    }),
    summary: "Delete a load plan (the row goes; plan_deleted)",
    tags,
  },
};

const unitOptions = {
  params: t.Object({
    id: uuidPath("The plan's id"),
    file: t.String({ maxLength: 20, description: "{n}.svg, n the unit's number from 1" }),
  }),
  detail: {
    responses: {
      200: {
        description: "The picture",
        content: { "image/svg+xml": { schema: { type: "string" as const } } },
      },
    },
    summary: "Isometric picture of one unit's load (image/svg+xml)",
    description:
      "The unit's outline, every piece drawn far to near with three shaded faces, one colour per item type, and a legend. Keyed like the plan (Authorization: Bearer or x-api-key).",
    tags,
  },
};

type Keyed = { principal: Principal };
type IdParams = { params: Static<typeof idParams> };

async function createPlan(
  x: PlanTools,
  { principal, body, set }: Keyed & { body: Static<typeof CreateBody>; set: Headers & { status?: unknown } },
) {
  const orgId = principal.org.id;
  const input = inputOf(body);
  const result = await x.plan(input, set);
  const at = x.iso();
  let raised = 0;
  const row = await x.storage.transaction(async (tx) => {
    const stored = await tx.loadPlans.insert({
      id: timeOrderedId(),
      orgId,
      name: body.name,
      reference: body.reference ?? null,
      input,
      result: result as unknown as Record<string, unknown>,
      status: statusOf(result),
      version: 1,
      createdAt: at,
      updatedAt: at,
    });
    raised = await appendPlanEvents(tx, orgId, [planCreated(x.base, stored)], at);
    return stored;
  });
  x.eventsCommitted(raised);
  set.status = 201;
  return planView(x.base, row);
}

async function listPlans(x: PlanTools, { principal, query }: Keyed & { query: Static<typeof listQuery> }) {
  const limit = pageLimit(query.limit);
  const after = pageAfter(query.cursor);
  const rows = await x.storage.loadPlans.page({
    orgId: principal.org.id,
    limit,
    after,
    reference: query.reference,
  });
  const { page, ...more } = pageOf(rows, limit);
  return { items: page.map((r) => planSummary(x.base, r)), ...more };
}

async function readPlan(x: PlanTools, { principal, params }: Keyed & IdParams) {
  return planView(x.base, await x.find(principal.org.id, params.id));
}

async function changePlan(
  x: PlanTools,
  { principal, params, body, set }: Keyed & IdParams & { body: Static<typeof PatchBody>; set: Headers },
) {
  const orgId = principal.org.id;
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await x.find(orgId, params.id);
    const input = inputOf(body, current.input);
    const changed: string[] = [];
    if (body.name !== undefined && body.name !== current.name) changed.push("name");
    if (body.reference !== undefined && body.reference !== current.reference) changed.push("reference");
    const replan = !same(input, current.input);
    if (replan) changed.push("input");
    if (changed.length === 0) return planView(x.base, current);
    const result = replan ? await x.plan(input, set) : resultOf(current);
    const at = x.iso();
    let raised = 0;
    const row = await x.storage.transaction(async (tx) => {
      const stored = await tx.loadPlans.update(orgId, current.id, current.version, {
        name: body.name ?? current.name,
        reference: body.reference === undefined ? current.reference : body.reference,
        input,
        result: result as unknown as Record<string, unknown>,
        status: statusOf(result),
        version: current.version + 1,
        updatedAt: at,
      });
      if (stored)
        raised = await appendPlanEvents(tx, orgId, [planUpdated(x.base, stored, current, changed)], at);
      return stored;
    });
    x.eventsCommitted(raised);
    if (row) return planView(x.base, row);
    // Changed or deleted since it was read: read it again (find answers 404 if it went).
  }
  throw new ApiError("overloaded", "The plan kept changing under this request; retry.", {
    retry_after_seconds: 1,
  });
}

async function deletePlan(x: PlanTools, { principal, params }: Keyed & IdParams) {
  const orgId = principal.org.id;
  const at = x.iso();
  if (!PLAN_ID.test(params.id)) throw x.notFound(params.id);
  let raised = 0;
  const gone = await x.storage.transaction(async (tx) => {
    const row = await tx.loadPlans.delete(orgId, params.id);
    if (row) raised = await appendPlanEvents(tx, orgId, [planDeleted(row, at)], at);
    return row;
  });
  x.eventsCommitted(raised);
  if (!gone) throw x.notFound(params.id);
  return { id: gone.id, deleted: true };
}

async function unitPicture(
  x: PlanTools,
  { principal, params, set }: Keyed & { params: Static<typeof unitOptions.params>; set: Headers },
) {
  const m = SVG_FILE.exec(params.file);
  const n = m ? Number(m[1]) : 0;
  // A kept picture is found by the plan's version alone: its input and result stay unread.
  const version = PLAN_ID.test(params.id)
    ? await x.storage.loadPlans.version(principal.org.id, params.id)
    : undefined;
  if (version === undefined) throw x.notFound(params.id);
  const kept = x.pictures.get(pictureKey(params.id, version, n, "svg"));
  if (kept) return svgResponse(kept);
  const row = await x.find(principal.org.id, params.id);
  return svgResponse(await x.picture(row, n, params.file).catch(x.shed(set)));
}

export function loadPlanRoutes(platform: FullPlatform) {
  const x = planTools(platform);
  const beforeHandle = entitled(platform, "loading");
  return new Elysia({ name: "load-plans" })
    .use(caller)
    .guard({ keyed: true })
    .post("/v1/load-plans", ({ principal, body, set }) => createPlan(x, { principal, body, set }), {
      ...createOptions,
      beforeHandle,
    })
    .get("/v1/load-plans", ({ principal, query }) => listPlans(x, { principal, query }), listOptions)
    .get("/v1/load-plans/:id", ({ principal, params }) => readPlan(x, { principal, params }), readOptions)
    .patch(
      "/v1/load-plans/:id",
      ({ principal, params, body, set }) => changePlan(x, { principal, params, body, set }),
      { ...changeOptions, beforeHandle },
    )
    .delete(
      "/v1/load-plans/:id",
      ({ principal, params }) => deletePlan(x, { principal, params }),
      deleteOptions,
    )
    .get(
      "/v1/load-plans/:id/units/:file",
      ({ principal, params, set }) => unitPicture(x, { principal, params, set }),
      unitOptions,
    );
}
