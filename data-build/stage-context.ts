/**
 * The context a stage runs with: its verified sources and the build outputs it declares, refused
 * by name otherwise. The same checks hold whether the stage runs in the build's thread or in a
 * worker of its own (stage-worker.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { matchesInput } from "./manifest.ts";
import type { BuildContext, Stage } from "./pipeline.ts";

export interface ContextInputs {
  sourcesDir: string;
  outDir: string;
  buildId: string;
  /** Verified source paths by key (fetch-sources). */
  verified: Map<string, string>;
  /** Which stage writes each build output, for the message when one is missing. */
  producers: Map<string, string>;
  log(msg: string): void;
}

export function stageContext(stage: Stage, c: ContextInputs): BuildContext {
  return {
    sourcesDir: c.sourcesDir,
    outDir: c.outDir,
    buildId: c.buildId,
    log: c.log,
    source(key: string): string {
      if (!matchesInput(stage.inputs, key)) {
        throw new Error(`stage ${stage.name} read source ${key} without declaring it in its inputs`);
      }
      const path = c.verified.get(key);
      if (!path) throw new Error(`source ${key} was not verified by fetch-sources`);
      return path;
    },
    artifact(file: string): Uint8Array {
      if (!stage.reads?.includes(file)) {
        throw new Error(`stage ${stage.name} read build output ${file} without declaring it in its reads`);
      }
      const path = join(c.outDir, file);
      if (!existsSync(path)) {
        const producer = c.producers.get(file);
        throw new Error(
          `${path} missing: ${producer ? `run the ${producer} stage first` : "build it first"} (\`npm run build\`)`,
        );
      }
      const b = readFileSync(path);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
  };
}
