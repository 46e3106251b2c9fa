/**
 * Fixtures from the DCSA CS 1.0.3 OpenAPI itself: each response item assembled from the `example` of
 * every property the schema declares (the 200 responses carry no whole-body examples), and the
 * ErrorResponse examples of the 400/500 responses as written. Broken variants derive from these.
 */
import { readFileSync } from "node:fs";
import { csOpenApiPath } from "../../ingest/schedules/gen-cs-schema.ts";

interface Node {
  $ref?: string;
  oneOf?: Node[];
  type?: string;
  properties?: Record<string, Node>;
  items?: Node;
  example?: unknown;
  enum?: unknown[];
  default?: unknown;
}

interface OpenApi {
  paths: Record<
    string,
    {
      get: {
        responses: Record<
          string,
          { content?: { "application/json": { examples?: Record<string, { value: unknown }> } } }
        >;
      };
    }
  >;
  components: { schemas: Record<string, Node> };
}

export const openApi = Bun.YAML.parse(readFileSync(csOpenApiPath(), "utf8")) as OpenApi;

/** An instance of `node` built from the spec's examples; `pick` chooses among oneOf alternatives. */
function build(node: Node, pick: number): unknown {
  if (node.$ref)
    return build(openApi.components.schemas[node.$ref.replace("#/components/schemas/", "")]!, pick);
  if (node.oneOf) return build(node.oneOf[pick % node.oneOf.length]!, pick);
  if (node.type === "object" || node.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(node.properties ?? {})) {
      const v = build(child, pick);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (node.type === "array") {
    const item = node.items ? build(node.items, pick) : undefined;
    return item === undefined ? undefined : [item];
  }
  // isDummyVessel is the one required field the spec gives no example for: a real vessel.
  return node.example ?? node.enum?.[0] ?? node.default ?? (node.type === "boolean" ? false : undefined);
}

/** The example item of a response schema (PointToPoint, PortSchedule, ServiceSchedule). */
export const exampleOf = (schema: string, pick = 0) =>
  build({ $ref: `#/components/schemas/${schema}` }, pick);

/** The number of alternatives of a schema's oneOf properties (Leg.transport: vessel, barge, other). */
export const TRANSPORT_ALTERNATIVES = openApi.components.schemas.Leg!.properties!.transport!.oneOf!.length;

/** The ErrorResponse examples of `path`'s `status` response, as the OpenAPI writes them. */
export function errorExamples(path: string, status: "400" | "500"): unknown[] {
  const examples = openApi.paths[path]!.get.responses[status]!.content!["application/json"].examples ?? {};
  return Object.values(examples).map((e) => e.value);
}

export const clone = <T>(v: T): T => structuredClone(v);
