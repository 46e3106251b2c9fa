/**
 * Follows on the schedules host (keyed only): POST/GET /v1/follows, GET/DELETE /v1/follows/{id}.
 * A follow names a sailing, a lane or a service; it decides which cut-offs raise cutoff_approaching
 * for the organisation and which lanes it hears reliability_drop for (ingest/schedules/follows.ts
 * holds the model). Creating one is a write and needs the schedules entitlement, as registering a
 * webhook does; reading and deleting need only a key. docs/schedules.md, "Follows".
 */
import { Elysia, type Static, t } from "elysia";
import { timeOrderedId } from "../../common/ids.ts";
import {
  type FollowKind,
  type FollowTarget,
  followIdentity,
  LEAD_HOURS,
  MAX_CUTOFF_CODES,
  MAX_FOLLOWS,
} from "../../ingest/schedules/follows.ts";
import type { FollowRow } from "../../storage/follows.ts";
import type { Principal } from "../accounts/repo.ts";
import { ApiError } from "../shared/errors.ts";
import { uuidPath } from "../shared/openapi/parameters.ts";
import { Int, routeAnswers, strict } from "../shared/openapi/responses.ts";
import type { FullPlatform } from "../shared/platform.ts";
import { caller, entitled } from "../shared/plugins/access.ts";
import { product } from "../shared/products.ts";
import { Follow } from "./schemas.ts";

const SCHEDULES = product("schedules");

import * as p from "./params.ts";

/** `{carrier}/{service code}/{voyage}`, as the refresh names sailings. */
const SAILING_ID = /^[A-Z]{2,10}\/[A-Za-z0-9_-]{1,11}\/[^/\s]{1,50}$/;
const CUTOFF_CODE = /^[A-Z]{3}$/;

export function followView(f: FollowRow) {
  return {
    id: f.id,
    type: f.kind,
    sailing_id: f.sailingId,
    carrier: f.carrier,
    origin: f.origin,
    destination: f.destination,
    service_code: f.serviceCode,
    lead_hours: f.leadHours,
    cut_off_codes: f.cutOffCodes,
    created_at: f.createdAt,
  };
}

interface FollowBody {
  type: FollowKind;
  sailing_id?: string;
  carrier?: string;
  origin?: string;
  destination?: string;
  service_code?: string;
  lead_hours?: number;
  cut_off_codes?: string[];
}

/** The fields each type takes; any other target field is refused, named. */
const TAKES: Record<FollowKind, ReadonlyArray<keyof FollowBody>> = {
  sailing: ["sailing_id"],
  lane: ["origin", "destination", "carrier"],
  service: ["carrier", "service_code"],
};
const TARGET_FIELDS = ["sailing_id", "carrier", "origin", "destination", "service_code"] as const;

function required(name: string, v: string | undefined, type: string): string {
  if (v === undefined) throw new ApiError("validation", `${name} is required for type ${type}.`);
  return v;
}

/** The body checked into a follow's target, lead and codes; every failure names its field. */
export function parseFollow(b: FollowBody): FollowTarget {
  for (const field of TARGET_FIELDS) {
    if (b[field] !== undefined && !TAKES[b.type].includes(field)) {
      throw new ApiError("validation", `${field} is not taken with type ${b.type}.`);
    }
  }
  const codes = [
    ...new Set(
      (b.cut_off_codes ?? []).map((c) => {
        if (!CUTOFF_CODE.test(c)) {
          throw new ApiError(
            "validation",
            `cut_off_codes: each must be a 3-letter code such as FCO; got "${c}".`,
          );
        }
        return c;
      }),
    ),
  ].sort();
  const base = {
    kind: b.type,
    sailingId: null,
    carrier: null,
    origin: null,
    destination: null,
    serviceCode: null,
    leadHours: b.lead_hours ?? LEAD_HOURS.default,
    cutOffCodes: codes,
  };
  if (b.type === "sailing") {
    const id = required("sailing_id", b.sailing_id, b.type);
    if (!SAILING_ID.test(id)) {
      throw new ApiError(
        "validation",
        `sailing_id must read {carrier}/{service code}/{voyage}; got "${id}".`,
      );
    }
    return { ...base, sailingId: id };
  }
  if (b.type === "lane") {
    const origin = p.unlocode("origin", b.origin);
    const destination = p.unlocode("destination", b.destination);
    if (origin === destination) throw new ApiError("validation", "origin and destination must differ.");
    return {
      ...base,
      origin,
      destination,
      carrier: b.carrier === undefined ? null : p.carrier("carrier", b.carrier),
    };
  }
  return {
    ...base,
    carrier: p.carrier("carrier", required("carrier", b.carrier, b.type)),
    serviceCode: p.serviceCode(required("service_code", b.service_code, b.type), "service_code"),
  };
}

/** POST /v1/follows: one of three kinds, checked further by parseFollow. */
const FollowBodySchema = t.Object(
  {
    type: t.Union([t.Literal("sailing"), t.Literal("lane"), t.Literal("service")], {
      description:
        "sailing (sailing_id), lane (origin, destination, carrier optional) or service (carrier, service_code)",
    }),
    sailing_id: t.Optional(t.String({ maxLength: 80, description: "{carrier}/{service code}/{voyage}" })),
    carrier: t.Optional(t.String({ maxLength: 20, description: "Carrier code (SCAC)" })),
    origin: t.Optional(t.String({ maxLength: 20, description: "UN/LOCODE of the port of loading" })),
    destination: t.Optional(t.String({ maxLength: 20, description: "UN/LOCODE of the port of discharge" })),
    service_code: t.Optional(t.String({ maxLength: 20, description: "The carrier's service code" })),
    lead_hours: t.Optional(
      t.Integer({
        minimum: LEAD_HOURS.min,
        maximum: LEAD_HOURS.max,
        description: `Notice before a cut-off, hours (default ${LEAD_HOURS.default})`,
      }),
    ),
    cut_off_codes: t.Optional(
      t.Array(t.String({ maxLength: 10 }), {
        maxItems: MAX_CUTOFF_CODES,
        description: "Cut-off codes notified (DCO, VCO, FCO, ...); default every code",
      }),
    ),
  },
  { additionalProperties: false },
);

const tags = ["keyed", "follows"];
const idParams = t.Object({ id: uuidPath("The follow's id") });

const createOptions = {
  body: FollowBodySchema,
  detail: {
    ...routeAnswers(
      SCHEDULES,
      {
        200: { description: "The same follow, already stored", data: Follow },
        201: { description: "The follow", data: Follow },
      },
      [409],
    ),
    summary: "Follow a sailing, a lane or a service",
    description: `cutoff_approaching is raised for the cut-offs it covers, lead_hours ahead; a followed lane is also a reliability_drop scope. The same follow posted again answers the stored one (200). At most ${MAX_FOLLOWS} per account (409 FOLLOW_LIMIT_REACHED). Needs the schedules entitlement.`,
    tags,
  },
};

const listOptions = {
  detail: {
    ...routeAnswers(SCHEDULES, {
      200: {
        description: "The follows and the most an account may hold",
        data: strict({ items: t.Array(Follow), limit: Int({ minimum: 1 }) }),
      },
    }),
    summary: "The account's follows, oldest first",
    tags,
  },
};

const readOptions = {
  params: idParams,
  detail: {
    ...routeAnswers(SCHEDULES, { 200: { description: "The follow", data: Follow } }),
    summary: "One follow",
    tags,
  },
};

const deleteOptions = {
  params: idParams,
  detail: {
    ...routeAnswers(SCHEDULES, {
      200: { description: "Removed", data: strict({ id: t.String(), deleted: t.Literal(true) }) },
    }),
    summary: "Stop following (notices already given stay given)",
    tags,
  },
};

type Keyed = { principal: Principal };
type IdParams = { params: Static<typeof idParams> };
const notFound = (id: string) => new ApiError("notFound", `No follow ${id} on this account.`);

async function createFollow(
  platform: FullPlatform,
  { principal, body, set }: Keyed & { body: Static<typeof FollowBodySchema>; set: { status?: unknown } },
) {
  const { storage } = platform;
  const target = parseFollow(body as FollowBody);
  if (target.sailingId !== null && !(await storage.sailings.get(target.sailingId))) {
    throw new ApiError("validation", `sailing_id names no stored sailing: "${target.sailingId}".`);
  }
  const done = await storage.follows.create(
    {
      ...target,
      id: timeOrderedId(),
      orgId: principal.org.id,
      identity: followIdentity(target),
      createdAt: new Date(platform.now()).toISOString(),
    },
    MAX_FOLLOWS,
  );
  if (done.outcome === "limit") {
    throw new ApiError(
      "followLimit",
      `This account holds ${done.held} follows, the most allowed (${MAX_FOLLOWS}); delete one first.`,
    );
  }
  // The same follow again answers the one stored (200), so a retried POST makes no second.
  set.status = done.outcome === "created" ? 201 : 200;
  return followView(done.row);
}

async function listFollows({ storage }: FullPlatform, { principal }: Keyed) {
  return { items: (await storage.follows.list(principal.org.id)).map(followView), limit: MAX_FOLLOWS };
}

async function readFollow({ storage }: FullPlatform, { principal, params }: Keyed & IdParams) {
  // Another account's follow answers 404, exactly like an id that never existed.
  const found = await storage.follows.get(principal.org.id, params.id);
  if (!found) throw notFound(params.id);
  return followView(found);
}

async function deleteFollow({ storage }: FullPlatform, { principal, params }: Keyed & IdParams) {
  if (!(await storage.follows.delete(principal.org.id, params.id))) throw notFound(params.id);
  return { id: params.id, deleted: true };
}

export function followRoutes(platform: FullPlatform) {
  return new Elysia({ name: "schedules-follows" })
    .use(caller)
    .guard({ keyed: true })
    .post("/v1/follows", ({ principal, body, set }) => createFollow(platform, { principal, body, set }), {
      ...createOptions,
      beforeHandle: entitled(platform, "schedules"),
    })
    .get("/v1/follows", ({ principal }) => listFollows(platform, { principal }), listOptions)
    .get(
      "/v1/follows/:id",
      ({ principal, params }) => readFollow(platform, { principal, params }),
      readOptions,
    )
    .delete(
      "/v1/follows/:id",
      ({ principal, params }) => deleteFollow(platform, { principal, params }),
      deleteOptions,
    );
}
