/**
 * One stage in a worker thread of its own, so stages that do not read each other's outputs build
 * side by side on several cores (stage-schedule.ts). The stage is the export of its registered
 * module whose name matches; its log lines go to the build's log through messages.
 */
import type { Stage } from "./pipeline.ts";
import { stageContext } from "./stage-context.ts";

export interface StageJob {
  module: string;
  name: string;
  sourcesDir: string;
  outDir: string;
  buildId: string;
  verified: Array<[string, string]>;
  producers: Array<[string, string]>;
}

export type StageMessage = { log: string } | { done: true } | { error: string };

declare const self: Worker;

const isStage = (v: unknown, name: string): v is Stage =>
  typeof v === "object" && v !== null && (v as Stage).name === name && typeof (v as Stage).run === "function";

self.onmessage = async (event: MessageEvent<StageJob>) => {
  const job = event.data;
  const post = (m: StageMessage) => self.postMessage(m);
  try {
    const stage = Object.values(await import(job.module)).find((v) => isStage(v, job.name));
    if (!stage) throw new Error(`${job.module} exports no stage named ${job.name}`);
    const ctx = stageContext(stage, {
      ...job,
      verified: new Map(job.verified),
      producers: new Map(job.producers),
      log: (msg) => post({ log: msg }),
    });
    await stage.run(ctx);
    post({ done: true });
  } catch (err) {
    post({ error: err instanceof Error ? err.message : String(err) });
  }
};
