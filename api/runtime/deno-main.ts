/**
 * Every product and role under Deno, as `bun api/main.ts` starts them, from the same environment
 * variables and defaults: `deno task start`, or `deno run -A --no-check api/runtime/deno-main.ts`
 * from the repository's root (Deno finds package.json, and so node_modules, from there).
 */
import { start } from "../start.ts";
import { denoRuntime } from "./deno.ts";

await start(denoRuntime);
