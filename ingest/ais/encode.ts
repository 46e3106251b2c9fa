/**
 * AIVDM encoder for publishers (the sandbox carrier's vessels): type 1 position reports and type 5
 * static data, armored and checksummed exactly as the decoder expects.
 */
import type { Eta } from "./messages.ts";
import { checksum, hex2 } from "./nmea.ts";
import { BitWriter } from "./sixbit.ts";

export interface VesselReport {
  mmsi: number;
  imo?: number | null;
  name?: string | null;
  callsign?: string | null;
  /** AIS ship type code (70 cargo, 80 tanker, ...). */
  shiptype?: number | null;
  destination?: string | null;
  /** Metres. */
  draught?: number | null;
  eta?: Partial<Eta> | null;
  /** Metres from the antenna: bow, stern, port, starboard. */
  dimensions?: { toBow: number; toStern: number; toPort: number; toStarboard: number } | null;
  lat?: number | null;
  lng?: number | null;
  /** Knots. */
  sog?: number | null;
  /** Degrees. */
  cog?: number | null;
  heading?: number | null;
  /** Navigation status code 0-14 (0 under way using engine, 1 at anchor, 5 moored). */
  status?: number | null;
  /** Time of the fix (epoch ms or Date); its UTC second goes into the report. */
  timestamp?: number | Date | null;
}

export interface SentenceOptions {
  channel?: "A" | "B";
  /** VDO marks our own vessel; publishers of other ships use VDM. */
  own?: boolean;
  /** Sequential message id (0-9) for multi-part messages. */
  seqId?: number;
  /** Tag block (NMEA 4.10) source and emission time (epoch ms). */
  source?: string;
  time?: number;
}

const clampInt = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));

/** Type 1 position report as one sentence. */
export function encodePosition(v: VesselReport, options: SentenceOptions = {}): string {
  const w = new BitWriter()
    .uint(1, 6)
    .uint(0, 2)
    .uint(v.mmsi, 30)
    .uint(v.status ?? 15, 4)
    .int(-128, 8)
    .uint(v.sog == null ? 1023 : clampInt(v.sog * 10, 0, 1022), 10)
    .uint(0, 1)
    .int(v.lng == null ? 181 * 600000 : clampInt(v.lng * 600000, -108000000, 108000000), 28)
    .int(v.lat == null ? 91 * 600000 : clampInt(v.lat * 600000, -54000000, 54000000), 27)
    .uint(v.cog == null ? 3600 : clampInt(v.cog * 10, 0, 3600) % 3600, 12)
    .uint(v.heading == null ? 511 : clampInt(v.heading, 0, 360) % 360, 9)
    .uint(v.timestamp == null ? 60 : new Date(v.timestamp).getUTCSeconds(), 6)
    .uint(0, 2)
    .uint(0, 3)
    .uint(0, 1)
    .uint(0, 19);
  const { payload, fillBits } = w.armored();
  return toSentences(payload, fillBits, options)[0]!;
}

/** Type 5 static and voyage data as two sentences. */
export function encodeStatic(v: VesselReport, options: SentenceOptions = {}): string[] {
  const d = v.dimensions;
  const eta = v.eta ?? {};
  const w = new BitWriter()
    .uint(5, 6)
    .uint(0, 2)
    .uint(v.mmsi, 30)
    .uint(0, 2)
    .uint(v.imo ?? 0, 30)
    .text(v.callsign ?? "", 7)
    .text(v.name ?? "", 20)
    .uint(v.shiptype ?? 0, 8)
    .uint(clampInt(d?.toBow ?? 0, 0, 511), 9)
    .uint(clampInt(d?.toStern ?? 0, 0, 511), 9)
    .uint(clampInt(d?.toPort ?? 0, 0, 63), 6)
    .uint(clampInt(d?.toStarboard ?? 0, 0, 63), 6)
    .uint(1, 4)
    .uint(eta.month ?? 0, 4)
    .uint(eta.day ?? 0, 5)
    .uint(eta.hour ?? 24, 5)
    .uint(eta.minute ?? 60, 6)
    .uint(v.draught == null ? 0 : clampInt(v.draught * 10, 0, 255), 8)
    .text(v.destination ?? "", 20)
    .uint(0, 1)
    .uint(0, 1);
  const { payload, fillBits } = w.armored();
  return toSentences(payload, fillBits, { seqId: 0, ...options });
}

/** Splits an armored payload into sentences of at most 60 characters (the usual 82-byte limit). */
export function toSentences(payload: string, fillBits: number, options: SentenceOptions = {}): string[] {
  const parts: string[] = [];
  for (let i = 0; i < payload.length; i += 60) parts.push(payload.slice(i, i + 60));
  const seq = parts.length > 1 ? String((options.seqId ?? 0) % 10) : "";
  const talker = options.own ? "AIVDO" : "AIVDM";
  return parts.map((part, i) => {
    const fill = i === parts.length - 1 ? fillBits : 0;
    const body = `${talker},${parts.length},${i + 1},${seq},${options.channel ?? "A"},${part},${fill}`;
    const sentence = `!${body}*${hex2(checksum(body))}`;
    return options.source !== undefined || options.time !== undefined
      ? tagBlock(options, parts.length > 1 ? { n: i + 1, of: parts.length } : null) + sentence
      : sentence;
  });
}

/** `\s:...,c:...,g:n-of-id*hh\` with the emission time in whole seconds. */
function tagBlock(options: SentenceOptions, group: { n: number; of: number } | null): string {
  const fields: string[] = [];
  if (options.source !== undefined) fields.push(`s:${options.source}`);
  if (options.time !== undefined) fields.push(`c:${Math.floor(options.time / 1000)}`);
  if (group) fields.push(`g:${group.n}-${group.of}-${options.seqId ?? 0}`);
  const body = fields.join(",");
  return `\\${body}*${hex2(checksum(body))}\\`;
}
