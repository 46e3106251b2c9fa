/**
 * Writes src/generated/<product>.ts for each of the six products: openapi-typescript over the
 * OpenAPI document the product serves at /docs/json, built in this process by the same code
 * (api/app.ts over an in-memory database), so no server has to run.
 *
 *   npx bun clients/typescript/scripts/generate.ts
 *
 * The files are committed; test/client/generated.test.ts fails when they differ from what this
 * script writes now.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";
import { buildApps } from "../../../api/app.ts";
import { bootstrap } from "../../../api/bootstrap.ts";
import { loadConfig } from "../../../api/config.ts";
import { PRODUCT_IDS, type ProductId } from "../../../api/shared/products.ts";
import { sourcesEnv } from "../../../common/sources-dir.ts";

export const GENERATED_DIR = join(import.meta.dir, "../src/generated");

/** The six documents as the products serve them (plugins/openapi.ts keeps each in its app's store). */
async function productDocuments(): Promise<Record<ProductId, OpenAPI3>> {
  const running = await bootstrap({ ...loadConfig(sourcesEnv()), database: ":memory:" });
  try {
    const apps = buildApps(running);
    const documentOf = (id: ProductId) =>
      (apps[id] as unknown as { store: { openApiDocument(): OpenAPI3 } }).store.openApiDocument();
    return Object.fromEntries(PRODUCT_IDS.map((id) => [id, documentOf(id)])) as Record<ProductId, OpenAPI3>;
  } finally {
    await running.close();
  }
}

/**
 * The document without its recorded example answers: they belong to /docs, and as JSDoc they would
 * multiply the generated files' size without changing a type.
 */
function withoutExamples(doc: OpenAPI3): OpenAPI3 {
  return JSON.parse(JSON.stringify(doc), (key, value) => (key === "example" ? undefined : value));
}

/** The text of each generated file, keyed by product. */
export async function generatedSources(): Promise<Record<ProductId, string>> {
  const documents = await productDocuments();
  const out = {} as Record<ProductId, string>;
  for (const id of PRODUCT_IDS) {
    const ast = await openapiTS(withoutExamples(documents[id]), { silent: true });
    out[id] =
      `${COMMENT_HEADER}// From the ${id} host's /docs/json by clients/typescript/scripts/generate.ts.\n\n${astToString(ast)}`;
  }
  return out;
}

if (import.meta.main) {
  for (const [id, text] of Object.entries(await generatedSources())) {
    writeFileSync(join(GENERATED_DIR, `${id}.ts`), text);
    console.log(`wrote src/generated/${id}.ts`);
  }
}
