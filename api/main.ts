/**
 * `npm start`: every product and role PORTOLAN_ROLES names in this one process under Bun
 * (api/start.ts). docs/scale-out.md runs each role as processes of its own on PostgreSQL and Redis;
 * api/runtime/deno-main.ts is the same start under Deno.
 */
import { bunRuntime } from "./runtime/bun.ts";
import { start } from "./start.ts";

await start(bunRuntime);
