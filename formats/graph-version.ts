/**
 * The graph payload version (docs/graph-format.md) has one definition, formats/graph.version:
 * graph/mod.rs reads it at compile time, the data build's encoder and the router binding import it from
 * here, so the writer and both readers cannot disagree. Imported as text, it is part of every stage's code
 * version: a bump reruns the graph stages.
 */
import graphVersion from "./graph.version" with { type: "text" };

/** The decimal number a version file holds (one line). */
function versionFromText(text: string, file: string): number {
  const version = Number(text.trim());
  if (!Number.isInteger(version) || version < 1)
    throw new Error(`${file} holds "${text.trim()}", not a version`);
  return version;
}

export const GRAPH_FORMAT_VERSION = versionFromText(graphVersion, "formats/graph.version");
