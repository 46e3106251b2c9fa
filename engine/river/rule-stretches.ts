/**
 * The seasonal rules' stretches (where each rule applies, as lines) that the river-graph stage
 * writes beside river.graph (data-build/river/rule-stretches.ts); the route map page serves them.
 */

import { decodeRiverRules, RIVER_RULES_OUTPUT } from "../../formats/river-rules.ts";
import { RIVER_STRETCHES_OUTPUT, type RuleStretch } from "../../formats/river-stretches.ts";
import { readArtifact, sameBuild } from "../artifacts.ts";

/**
 * The stretches of the build in `buildDir`, refused when they come from another build than
 * river-rules.bin (written by the same stage run as river.graph).
 */
export async function loadRuleStretches(buildDir: string): Promise<Record<string, RuleStretch>> {
  const [file, rules] = await Promise.all([
    readArtifact(buildDir, RIVER_STRETCHES_OUTPUT),
    readArtifact(buildDir, RIVER_RULES_OUTPUT),
  ]);
  const { build_id, stretches } = JSON.parse(new TextDecoder().decode(file.bytes)) as {
    build_id: string;
    stretches: Record<string, RuleStretch>;
  };
  sameBuild(
    buildDir,
    { file: RIVER_STRETCHES_OUTPUT, buildId: build_id },
    { file: RIVER_RULES_OUTPUT, buildId: decodeRiverRules(rules.bytes, rules.path).buildId },
  );
  return stretches;
}
