/**
 * A delivery as received, checked against the webhook its product's served OpenAPI document lists
 * for the body's type (api/webhooks/openapi.ts): the body against the requestBody schema and each
 * documented header against its parameter schema (Ajv, JSON Schema 2020-12). A mismatch throws.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import type { ProductId } from "../../api/shared/products.ts";
import { FORMATS } from "../helpers/answer-check.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import type { Received } from "./receiver.ts";

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; schema: Json };
type Doc = Json & { webhooks?: Record<string, { post: { parameters: Parameter[] } }> };

const pointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

/** A checker of deliveries for the product's served document. */
export async function deliveryChecker(p: TestPlatform, product: ProductId) {
  const doc = (await (await p.call(product, "/docs/json")).json()) as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  for (const [name, re] of Object.entries(FORMATS)) ajv.addFormat(name, re);
  ajv.addSchema(doc, "doc");
  const compiled = new Map<string, ValidateFunction>();
  const check = (ref: string, value: unknown, what: string) => {
    const validate = compiled.get(ref) ?? ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
    if (!validate(value)) {
      const e = validate.errors?.[0];
      throw new Error(`${what} does not match the document at ${e?.instancePath || "/"}: ${e?.message}`);
    }
  };
  return (got: Received): void => {
    const body = JSON.parse(got.raw.toString("utf8")) as { type: string };
    const hook = doc.webhooks?.[body.type];
    if (!hook) throw new Error(`${product} ${body.type}: the document lists no such webhook`);
    const at = `doc#/webhooks/${pointer(body.type)}/post`;
    check(`${at}/requestBody/content/application~1json/schema`, body, `${product} ${body.type} body`);
    hook.post.parameters.forEach((h, i) => {
      check(
        `${at}/parameters/${i}/schema`,
        got.headers[h.name.toLowerCase()],
        `${product} ${body.type} ${h.name}`,
      );
    });
  };
}
