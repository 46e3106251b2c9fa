/**
 * AIS message payloads we decode (field layout: gpsd's AIVDM.adoc). Values are scaled to plain
 * units (degrees, knots, metres); every "not available" sentinel becomes null. See README.md for
 * the fields we deliberately leave out.
 */

import type { TagBlock } from "./nmea.ts";
import type { Bits } from "./sixbit.ts";

/** Where and when a message was heard (from the NMEA layer, not the payload). */
export interface AisMeta {
  /** Radio channel (A, B, 1, 2) or null. */
  channel: string | null;
  /** AIVDO: our own vessel's report. */
  own: boolean;
  talker: string;
  /** Tag block of the (first) sentence, when present and its checksum verified. */
  tags: TagBlock | null;
  /** Epoch ms the caller says the line was received. */
  receivedAt: number;
  /** Sentences the message was assembled from. */
  sentences: number;
}

interface Common {
  repeat: number;
  mmsi: number;
}

/** Shared by the position-bearing types. */
interface Position {
  /** Degrees, null when not available (91 / 181) or out of range. */
  lat: number | null;
  lon: number | null;
  /** true: DGPS-quality fix (< 10 m). */
  accuracy: boolean;
  raim: boolean;
}

/** Types 1, 2, 3: class A position report. */
export interface PositionReportA extends Common, Position {
  type: 1 | 2 | 3;
  /** 0-14; 15 ("not defined", the default) is null. */
  navStatus: number | null;
  /** Raw ROT field (-128 = no information, ±127 = turning fast without an indicator). */
  rotRaw: number;
  /** Degrees per minute (ITU formula, sign = direction), null when -128 or ±127. */
  rot: number | null;
  /** Knots; 102.2 means 102.2 or more. */
  sog: number | null;
  cog: number | null;
  heading: number | null;
  /** UTC second of the fix, null for 60-63 (not available, manual, dead reckoning, inoperative). */
  second: number | null;
  maneuver: number;
  /** Radio (SOTDMA/ITDMA) state; null when the sentence is cut short before it. */
  radio: number | null;
}

/** Type 4: base station report, with its UTC clock (components null when not available). */
export interface BaseStationReport extends Common, Position {
  type: 4;
  year: number | null;
  month: number | null;
  day: number | null;
  hour: number | null;
  minute: number | null;
  second: number | null;
  /** ISO 8601 UTC time when every component is available, else null. */
  utc: string | null;
  epfd: number | null;
  radio: number;
}

interface Dimensions {
  /** Metres from the reference point; 0 is "not available" and reads as null. */
  toBow: number | null;
  toStern: number | null;
  toPort: number | null;
  toStarboard: number | null;
}

/** ETA components, each null when not available (month/day 0, hour 24, minute 60). */
export interface Eta {
  month: number | null;
  day: number | null;
  hour: number | null;
  minute: number | null;
}

/** Type 5: static and voyage related data (two sentences). */
export interface StaticVoyageData extends Common, Dimensions {
  type: 5;
  aisVersion: number;
  imo: number | null;
  callsign: string | null;
  shipname: string | null;
  shiptype: number | null;
  epfd: number | null;
  eta: Eta;
  /** Metres; 0 (not available) is null. */
  draught: number | null;
  destination: string | null;
  /** true: data terminal not ready. */
  dte: boolean;
}

/** Type 18: class B position report. */
export interface PositionReportB extends Common, Position {
  type: 18;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  second: number | null;
  regional: number;
  cs: boolean;
  display: boolean;
  dsc: boolean;
  band: boolean;
  msg22: boolean;
  assigned: boolean;
  radio: number;
}

/** Type 19: extended class B position report (position plus name and dimensions). */
export interface ExtendedPositionReportB extends Common, Position, Dimensions {
  type: 19;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  second: number | null;
  regional: number;
  shipname: string | null;
  shiptype: number | null;
  epfd: number | null;
  dte: boolean;
  assigned: boolean;
}

/** Type 21: aid to navigation. */
export interface AidToNavigation extends Common, Position, Dimensions {
  type: 21;
  aidType: number;
  /** Name with the name extension appended. */
  name: string | null;
  epfd: number | null;
  second: number | null;
  offPosition: boolean;
  regional: number;
  virtualAid: boolean;
  assigned: boolean;
}

/** Type 24 part A: name. */
export interface StaticDataA extends Common {
  type: 24;
  partno: 0;
  shipname: string | null;
}

/** Type 24 part B: type, vendor, call sign and dimensions (or the mothership of an auxiliary craft). */
export interface StaticDataB extends Common, Dimensions {
  type: 24;
  partno: 1;
  shiptype: number | null;
  vendorId: string | null;
  model: number;
  serial: number;
  callsign: string | null;
  /** Set (and dimensions null) when the MMSI is an auxiliary craft's (98MIDxxxx). */
  mothershipMmsi: number | null;
}

/** Type 27: long-range broadcast (coarser units). */
export interface LongRangeReport extends Common, Position {
  type: 27;
  navStatus: number | null;
  /** Whole knots (0-62), null when 63. */
  sog: number | null;
  /** Whole degrees, null when 511. */
  cog: number | null;
  /**
   * Bit 94: true when the position is more than 5 s old (ITU-R M.1371-5 "position latency";
   * older editions read the same bit as "not a current GNSS position"). gpsd calls it `gnss`.
   */
  latency: boolean;
}

export type AisPayload =
  | PositionReportA
  | BaseStationReport
  | StaticVoyageData
  | PositionReportB
  | ExtendedPositionReportB
  | AidToNavigation
  | StaticDataA
  | StaticDataB
  | LongRangeReport;

export type AisMessage = AisPayload & { meta: AisMeta };

/** Minimum payload bits per type: shorter payloads are rejected rather than read as zeros. */
const MIN_BITS: Record<number, number> = {
  // Class A reports cut inside the radio state (163 bits is seen in the wild) still carry a fix.
  1: 149,
  2: 149,
  3: 149,
  4: 168,
  // Type 5 is 424 bits, but 420/422-bit ones are common in the wild (truncated destination).
  5: 420,
  18: 168,
  19: 312,
  21: 272,
  24: 160,
  27: 96,
};

export type PayloadError = "unsupported" | "short";

/** The fields every message starts with. */
interface Head<T extends number> {
  type: T;
  repeat: number;
  mmsi: number;
}

/** Types 1-3: class A position report. */
function positionReportA(b: Bits, head: Head<1 | 2 | 3>): PositionReportA {
  const rotRaw = b.int(42, 8);
  return {
    ...head,
    navStatus: navStatus(b.uint(38, 4)),
    rotRaw,
    rot: Math.abs(rotRaw) >= 127 ? null : Math.sign(rotRaw) * (rotRaw / 4.733) ** 2,
    sog: sog(b.uint(50, 10)),
    accuracy: b.bool(60),
    lon: lon(b.int(61, 28), 600000),
    lat: lat(b.int(89, 27), 600000),
    cog: cog(b.uint(116, 12)),
    heading: heading(b.uint(128, 9)),
    second: second(b.uint(137, 6)),
    maneuver: b.uint(143, 2),
    raim: b.bool(148),
    radio: b.length >= 168 ? b.uint(149, 19) : null,
  };
}

/** Type 4: base station report (UTC and position). */
function baseStationReport(b: Bits, head: Head<4>): BaseStationReport {
  const year = b.uint(38, 14) || null;
  const month = range(b.uint(52, 4), 1, 12);
  const day = range(b.uint(56, 5), 1, 31);
  const hour = range(b.uint(61, 5), 0, 23);
  const minute = range(b.uint(66, 6), 0, 59);
  const sec = range(b.uint(72, 6), 0, 59);
  const parts = [year, month, day, hour, minute, sec];
  return {
    ...head,
    year,
    month,
    day,
    hour,
    minute,
    second: sec,
    utc: parts.includes(null)
      ? null
      : `${pad(year!, 4)}-${pad(month!)}-${pad(day!)}T${pad(hour!)}:${pad(minute!)}:${pad(sec!)}Z`,
    accuracy: b.bool(78),
    lon: lon(b.int(79, 28), 600000),
    lat: lat(b.int(107, 27), 600000),
    epfd: b.uint(134, 4) || null,
    raim: b.bool(148),
    radio: b.uint(149, 19),
  };
}

/** Type 5: static and voyage data. */
function staticVoyageData(b: Bits, head: Head<5>): StaticVoyageData {
  return {
    ...head,
    aisVersion: b.uint(38, 2),
    imo: b.uint(40, 30) || null,
    callsign: b.text(70, 7) || null,
    shipname: b.text(112, 20) || null,
    shiptype: b.uint(232, 8) || null,
    ...dimensions(b, 240),
    epfd: b.uint(270, 4) || null,
    eta: {
      month: range(b.uint(274, 4), 1, 12),
      day: range(b.uint(278, 5), 1, 31),
      hour: range(b.uint(283, 5), 0, 23),
      minute: range(b.uint(288, 6), 0, 59),
    },
    draught: b.uint(294, 8) / 10 || null,
    destination: b.text(302, 20) || null,
    dte: b.bool(422),
  };
}

/** Type 18: class B position report. */
function positionReportB(b: Bits, head: Head<18>): PositionReportB {
  return {
    ...head,
    ...classBPosition(b),
    regional: b.uint(139, 2),
    cs: b.bool(141),
    display: b.bool(142),
    dsc: b.bool(143),
    band: b.bool(144),
    msg22: b.bool(145),
    assigned: b.bool(146),
    raim: b.bool(147),
    radio: b.uint(148, 20),
  };
}

/** Type 19: extended class B position report. */
function extendedPositionReportB(b: Bits, head: Head<19>): ExtendedPositionReportB {
  return {
    ...head,
    ...classBPosition(b),
    regional: b.uint(139, 4),
    shipname: b.text(143, 20) || null,
    shiptype: b.uint(263, 8) || null,
    ...dimensions(b, 271),
    epfd: b.uint(301, 4) || null,
    raim: b.bool(305),
    dte: b.bool(306),
    assigned: b.bool(307),
  };
}

/** Type 21: aid-to-navigation report. */
function aidToNavigation(b: Bits, head: Head<21>): AidToNavigation {
  const name = b.text(43, 20);
  // The extension only continues a full 20-character name; it is byte-padded, hence the floor.
  const extension = name.length === 20 ? b.text(272, Math.floor((b.length - 272) / 6)) : "";
  return {
    ...head,
    aidType: b.uint(38, 5),
    name: name + extension || null,
    accuracy: b.bool(163),
    lon: lon(b.int(164, 28), 600000),
    lat: lat(b.int(192, 27), 600000),
    ...dimensions(b, 219),
    epfd: b.uint(249, 4) || null,
    second: second(b.uint(253, 6)),
    offPosition: b.bool(259),
    regional: b.uint(260, 8),
    raim: b.bool(268),
    virtualAid: b.bool(269),
    assigned: b.bool(270),
  };
}

/** Type 24: static data, part A (name) or B (type, vendor, call sign, dimensions). */
function staticData(b: Bits, head: Head<24>): StaticDataA | StaticDataB | PayloadError {
  const partno = b.uint(38, 2);
  if (partno === 0) return { ...head, partno, shipname: b.text(40, 20) || null };
  if (partno !== 1 || b.length < 162) return "short";
  const auxiliary = Math.floor(head.mmsi / 10000000) === 98;
  return {
    ...head,
    partno,
    shiptype: b.uint(40, 8) || null,
    vendorId: b.text(48, 3) || null,
    model: b.uint(66, 4),
    serial: b.uint(70, 20),
    callsign: b.text(90, 7) || null,
    ...(auxiliary ? { toBow: null, toStern: null, toPort: null, toStarboard: null } : dimensions(b, 132)),
    mothershipMmsi: auxiliary ? b.uint(132, 30) : null,
  };
}

/** Type 27: long-range broadcast, 1/10 minute positions, whole knots and degrees. */
function longRangeReport(b: Bits, head: Head<27>): LongRangeReport {
  const sogRaw = b.uint(79, 6);
  const cogRaw = b.uint(85, 9);
  return {
    ...head,
    accuracy: b.bool(38),
    raim: b.bool(39),
    navStatus: navStatus(b.uint(40, 4)),
    lon: lon(b.int(44, 18), 600),
    lat: lat(b.int(62, 17), 600),
    sog: sogRaw === 63 ? null : sogRaw,
    cog: cogRaw >= 360 ? null : cogRaw,
    latency: b.bool(94),
  };
}

/** Decodes a loaded payload; never reads past what `MIN_BITS` guarantees except for text. */
export function decodePayload(b: Bits): AisPayload | PayloadError {
  const type = b.uint(0, 6);
  const min = MIN_BITS[type];
  if (min === undefined) return "unsupported";
  if (b.length < min) return "short";
  const repeat = b.uint(6, 2);
  const mmsi = b.uint(8, 30);
  switch (type) {
    case 1:
    case 2:
    case 3:
      return positionReportA(b, { type, repeat, mmsi });
    case 4:
      return baseStationReport(b, { type, repeat, mmsi });
    case 5:
      return staticVoyageData(b, { type, repeat, mmsi });
    case 18:
      return positionReportB(b, { type, repeat, mmsi });
    case 19:
      return extendedPositionReportB(b, { type, repeat, mmsi });
    case 21:
      return aidToNavigation(b, { type, repeat, mmsi });
    case 24:
      return staticData(b, { type, repeat, mmsi });
    default:
      return longRangeReport(b, { type: 27, repeat, mmsi });
  }
}

function navStatus(v: number): number | null {
  return v === 15 ? null : v;
}

function sog(v: number): number | null {
  return v === 1023 ? null : v / 10;
}

function cog(v: number): number | null {
  return v >= 3600 ? null : v / 10;
}

function heading(v: number): number | null {
  return v >= 360 ? null : v;
}

function second(v: number): number | null {
  return v >= 60 ? null : v;
}

/** Latitude in degrees from `raw` units of 1/`perDegree`; 91 (not available) or beyond ±90 is null. */
function lat(raw: number, perDegree: number): number | null {
  const deg = raw / perDegree;
  return deg > 90 || deg < -90 ? null : deg;
}

function lon(raw: number, perDegree: number): number | null {
  const deg = raw / perDegree;
  return deg > 180 || deg < -180 ? null : deg;
}

function range(v: number, lo: number, hi: number): number | null {
  return v < lo || v > hi ? null : v;
}

/** Bits 46-138 of class B reports (types 18 and 19): the position block both share. */
function classBPosition(b: Bits) {
  return {
    sog: sog(b.uint(46, 10)),
    accuracy: b.bool(56),
    lon: lon(b.int(57, 28), 600000),
    lat: lat(b.int(85, 27), 600000),
    cog: cog(b.uint(112, 12)),
    heading: heading(b.uint(124, 9)),
    second: second(b.uint(133, 6)),
  };
}

function dimensions(b: Bits, at: number): Dimensions {
  return {
    toBow: b.uint(at, 9) || null,
    toStern: b.uint(at + 9, 9) || null,
    toPort: b.uint(at + 18, 6) || null,
    toStarboard: b.uint(at + 24, 6) || null,
  };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

const NAV_STATUS = [
  "under way using engine",
  "at anchor",
  "not under command",
  "restricted manoeuverability",
  "constrained by her draught",
  "moored",
  "aground",
  "engaged in fishing",
  "under way sailing",
  "reserved (HSC)",
  "reserved (WIG)",
  "towing astern",
  "pushing ahead or towing alongside",
  "reserved",
  "AIS-SART active",
];

/** Text of a navigation status code (0-14), null for null. */
export function navStatusText(status: number | null): string | null {
  return status === null ? null : (NAV_STATUS[status] ?? null);
}
