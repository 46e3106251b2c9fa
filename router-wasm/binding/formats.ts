/**
 * The graph payload version (docs/graph-format.md) has one definition, router-wasm/src/graph.version:
 * graph.rs reads it at compile time, the data build's encoder and this binding read it here, so the
 * writer and both readers cannot disagree. Imported as text, it is part of every stage's code
 * version: a bump reruns the graph stages.
 */
import graphVersion from "../src/graph.version" with { type: "text" };

/** The decimal number a version file holds (one line). */
function versionFromText(text: string, file: string): number {
  const version = Number(text.trim());
  if (!Number.isInteger(version) || version < 1)
    throw new Error(`${file} holds "${text.trim()}", not a version`);
  return version;
}

export const GRAPH_FORMAT_VERSION = versionFromText(graphVersion, "router-wasm/src/graph.version");
