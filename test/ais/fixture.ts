/** AIS reference files from PORTOLAN_SOURCES (default ../shared/data beside the project root); never copied here. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { AisDecoder } from "../../ingest/ais/decoder.ts";
import { encodePosition, encodeStatic, type VesselReport } from "../../ingest/ais/encode.ts";
import type { AisMessage } from "../../ingest/ais/messages.ts";

export const AIS_DIR = join(sourcesDirFrom(), "ais");

export function aisLines(relative: string): string[] {
  return readFileSync(join(AIS_DIR, relative), "utf8").split(/\r?\n/);
}

/** Every message a fresh decoder yields for `lines`, in order. */
export function decodeAll(lines: string[], receivedAt = 0): { messages: AisMessage[]; decoder: AisDecoder } {
  const decoder = new AisDecoder();
  const messages: AisMessage[] = [];
  for (const line of lines) {
    const m = decoder.push(line, receivedAt);
    if (m) messages.push(m);
  }
  return { messages, decoder };
}

/** All AIVDM sentences of the reference logs (the bench and the property tests reuse them). */
export const REAL_LOGS = [
  "gpsd/ais-18-27.log",
  "gpsd/ais-nmea.log",
  "gpsd/ais-raw-messages.log",
  "gpsd/sample.aivdm",
  "libais/test.aivdm",
  "libais/typeexamples.nmea",
  "libais/tagblock.nmea",
  "pyais/nmea_data_sample.txt",
  "pyais/mixed.txt",
];

/** Decodes the sentences for `v` (position, or static data when `statics`) as heard at `at`. */
export function heard(
  v: VesselReport,
  at: number,
  options: { statics?: boolean; tagTime?: number } = {},
): AisMessage[] {
  const d = new AisDecoder();
  const tags = options.tagTime === undefined ? {} : { source: "test", time: options.tagTime };
  const lines = options.statics ? encodeStatic(v, tags) : [encodePosition(v, tags)];
  return lines.map((l) => d.push(l, at)).filter((m): m is AisMessage => m !== null);
}
