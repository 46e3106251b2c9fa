/**
 * A Redis Lua script run by its SHA1 (EVALSHA), sent whole only when the server's script cache
 * lacks it (first use, or a restarted Redis): one round trip in the usual case.
 */
import { createHash } from "node:crypto";

/** What node-redis clients (plain, pooled or in a RedisLink) all offer for scripts. */
export interface ScriptClient {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export class LuaScript {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(client: ScriptClient, args: { keys: string[]; arguments: string[] }): Promise<unknown> {
    try {
      return await client.evalSha(this.sha, args);
    } catch (err) {
      if (!String(err).includes("NOSCRIPT")) throw err;
      return await client.eval(this.source, args);
    }
  }
}
