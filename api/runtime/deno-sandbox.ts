/** The sandbox carrier as its own process under Deno (ingest/sandbox/run.ts), as the Deno start runs it. */
import { runSandbox } from "../../ingest/sandbox/run.ts";
import { denoListenTcp, denoServe } from "./deno.ts";

await runSandbox({ serve: (o) => denoServe(o).addr, listenTcp: denoListenTcp });
