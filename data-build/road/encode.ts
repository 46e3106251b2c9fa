/**
 * The road-network artifact: a normalised node and link table in one container (kind
 * `road-network`), column per section so a reader maps typed arrays without copying. Byte layout:
 * docs/road-network.md. Not a routable graph: the graph stage builds one from this table.
 */
import { bytesOf, decodeArtifact, encodeArtifact } from "../../formats/container.ts";
import { LINK_KINDS, type LinkKind } from "../../formats/road-graph.ts";
import { NODE_KINDS, type NodeKind, type RoadLink, type RoadNode } from "./network.ts";

export const ROAD_NETWORK_KIND = "road-network";
export const ROAD_NETWORK_VERSION = 1;
export const ROAD_NETWORK_OUTPUT = "road-network.bin";
export const ROAD_SUMMARY_OUTPUT = "road-network.summary.json";

/** Link flag bits. */
export const FLAG_TRUCK = 1;
export const FLAG_CROSS_BORDER = 2;

function strings(list: string[]): { offsets: Uint32Array; bytes: Uint8Array } {
  const enc = new TextEncoder();
  const parts = list.map((s) => enc.encode(s));
  const offsets = new Uint32Array(list.length + 1);
  parts.forEach((p, i) => {
    offsets[i + 1] = offsets[i]! + p.length;
  });
  const bytes = new Uint8Array(offsets[list.length]!);
  parts.forEach((p, i) => {
    bytes.set(p, offsets[i]!);
  });
  return { offsets, bytes };
}

const iso2 = (codes: string[]) =>
  new TextEncoder().encode(codes.map((c) => (c || "--").padEnd(2, "-")).join(""));

export function encodeRoadNetwork(
  nodes: RoadNode[],
  links: RoadLink[],
  meta: Record<string, unknown>,
  buildId: string,
): Uint8Array {
  const names = strings(nodes.map((n) => n.name));
  const linkNames = strings(links.map((l) => l.name));
  const sections = [
    { name: "meta", bytes: new TextEncoder().encode(JSON.stringify(meta)) },
    { name: "node_lat", bytes: bytesOf(Float64Array.from(nodes, (n) => n.lat)) },
    { name: "node_lng", bytes: bytesOf(Float64Array.from(nodes, (n) => n.lng)) },
    { name: "node_population", bytes: bytesOf(Uint32Array.from(nodes, (n) => n.population)) },
    { name: "node_kind", bytes: Uint8Array.from(nodes, (n) => NODE_KINDS.indexOf(n.kind)) },
    { name: "node_country", bytes: iso2(nodes.map((n) => n.country)) },
    { name: "node_name_offsets", bytes: bytesOf(names.offsets) },
    { name: "node_names", bytes: names.bytes },
    { name: "link_a", bytes: bytesOf(Uint32Array.from(links, (l) => l.a)) },
    { name: "link_b", bytes: bytesOf(Uint32Array.from(links, (l) => l.b)) },
    { name: "link_length_m", bytes: bytesOf(Float64Array.from(links, (l) => l.lengthM)) },
    { name: "link_gc_m", bytes: bytesOf(Float64Array.from(links, (l) => l.gcM)) },
    { name: "link_speed_kmh", bytes: bytesOf(Float32Array.from(links, (l) => l.speedKmh)) },
    { name: "link_hours", bytes: bytesOf(Float32Array.from(links, (l) => l.crossingHours ?? Number.NaN)) },
    { name: "link_kind", bytes: Uint8Array.from(links, (l) => LINK_KINDS.indexOf(l.kind)) },
    {
      name: "link_flags",
      bytes: Uint8Array.from(
        links,
        (l) => (l.carriesTruck ? FLAG_TRUCK : 0) | (l.country !== l.countryB ? FLAG_CROSS_BORDER : 0),
      ),
    },
    { name: "link_country", bytes: iso2(links.map((l) => l.country)) },
    { name: "link_country_b", bytes: iso2(links.map((l) => l.countryB)) },
    { name: "link_name_offsets", bytes: bytesOf(linkNames.offsets) },
    { name: "link_names", bytes: linkNames.bytes },
  ];
  return encodeArtifact(ROAD_NETWORK_KIND, ROAD_NETWORK_VERSION, buildId, sections);
}

export interface DecodedRoadNetwork {
  buildId: string;
  meta: Record<string, unknown>;
  nodes: RoadNode[];
  links: RoadLink[];
}

/** Reads the artifact back into row objects (tests and the future graph stage). */
export function decodeRoadNetwork(bytes: Uint8Array, path?: string): DecodedRoadNetwork {
  const art = decodeArtifact(bytes, { kind: ROAD_NETWORK_KIND, formatVersion: ROAD_NETWORK_VERSION, path });
  const sec = (name: string) => {
    const s = art.sections.get(name);
    if (!s) throw new Error(`road-network artifact ${path ?? ""}: section ${name} missing`);
    // Copy to an aligned buffer: cheap at this size and independent of the file's alignment.
    return new Uint8Array(s).buffer;
  };
  const dec = new TextDecoder();
  const f64 = (n: string) => new Float64Array(sec(n));
  const f32 = (n: string) => new Float32Array(sec(n));
  const u32 = (n: string) => new Uint32Array(sec(n));
  const u8 = (n: string) => new Uint8Array(sec(n));
  const iso = (n: string) => {
    const s = dec.decode(u8(n));
    return (i: number) => {
      const c = s.slice(2 * i, 2 * i + 2);
      return c === "--" ? "" : c;
    };
  };
  const text = (offsetsName: string, bytesName: string) => {
    const o = u32(offsetsName);
    const b = u8(bytesName);
    return (i: number) => dec.decode(b.subarray(o[i]!, o[i + 1]!));
  };
  const [lat, lng, pop, kind] = [f64("node_lat"), f64("node_lng"), u32("node_population"), u8("node_kind")];
  const nodeCountry = iso("node_country");
  const nodeName = text("node_name_offsets", "node_names");
  const nodes: RoadNode[] = Array.from(lat, (_, i) => ({
    lat: lat[i]!,
    lng: lng[i]!,
    kind: NODE_KINDS[kind[i]!] as NodeKind,
    country: nodeCountry(i),
    name: nodeName(i),
    population: pop[i]!,
  }));
  const [a, b, len, gc, speed, hours] = [
    u32("link_a"),
    u32("link_b"),
    f64("link_length_m"),
    f64("link_gc_m"),
    f32("link_speed_kmh"),
    f32("link_hours"),
  ];
  const [lkind, flags] = [u8("link_kind"), u8("link_flags")];
  const ca = iso("link_country");
  const cb = iso("link_country_b");
  const linkName = text("link_name_offsets", "link_names");
  const links: RoadLink[] = Array.from(a, (_, i) => ({
    a: a[i]!,
    b: b[i]!,
    kind: LINK_KINDS[lkind[i]!] as LinkKind,
    gcM: gc[i]!,
    factor: gc[i]! > 0 ? len[i]! / gc[i]! : 1,
    lengthM: len[i]!,
    country: ca(i),
    countryB: cb(i),
    speedKmh: speed[i]!,
    crossingHours: Number.isNaN(hours[i]!) ? null : hours[i]!,
    carriesTruck: (flags[i]! & FLAG_TRUCK) !== 0,
    name: linkName(i),
  }));
  return {
    buildId: art.buildId,
    meta: JSON.parse(dec.decode(u8("meta"))) as Record<string, unknown>,
    nodes,
    links,
  };
}
