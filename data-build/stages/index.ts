/** The stage registry, in run order. `module` is the file defining the stage: its code version. */
import type { RegisteredStage } from "../pipeline.ts";
import { locationsStage } from "./locations.ts";
import { railGraphStage } from "./rail-graph.ts";
import { railHierarchyStage } from "./rail-hierarchy.ts";
import { riverGraphStage } from "./river-graph.ts";
import { roadGraphStage } from "./road-graph.ts";
import { roadHierarchyStage } from "./road-hierarchy.ts";
import { roadNetworkStage } from "./road-network.ts";
import { seaGraphStage } from "./sea-graph.ts";
import { seaHierarchyStage } from "./sea-hierarchy.ts";

const here = (file: string) => new URL(file, import.meta.url).pathname;

export const registry: RegisteredStage[] = [
  { stage: locationsStage, module: here("./locations.ts") },
  { stage: seaGraphStage, module: here("./sea-graph.ts") },
  { stage: seaHierarchyStage, module: here("./sea-hierarchy.ts") },
  { stage: roadNetworkStage, module: here("./road-network.ts") },
  { stage: roadGraphStage, module: here("./road-graph.ts") },
  { stage: roadHierarchyStage, module: here("./road-hierarchy.ts") },
  { stage: railGraphStage, module: here("./rail-graph.ts") },
  { stage: railHierarchyStage, module: here("./rail-hierarchy.ts") },
  { stage: riverGraphStage, module: here("./river-graph.ts") },
];
