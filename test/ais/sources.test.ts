import { afterEach, describe, expect, test } from "bun:test";
import { createSocket } from "node:dgram";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodePosition, encodeStatic } from "../../ingest/ais/encode.ts";
import type { AisMessage } from "../../ingest/ais/messages.ts";
import { type AisSource, FileReplay, TcpSource, UdpSource } from "../../ingest/ais/sources.ts";
import { AIS_DIR, aisLines, decodeAll } from "./fixture.ts";

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function take(source: AisSource, n: number, timeoutMs = 5000): Promise<AisMessage[]> {
  const out: AisMessage[] = [];
  const timeout = setTimeout(() => source.close(), timeoutMs);
  for await (const m of source) {
    out.push(m);
    if (out.length === n) break;
  }
  clearTimeout(timeout);
  return out;
}

const position = (mmsi: number) => encodePosition({ mmsi, lat: 51.9, lng: 4.1, sog: 10 });

describe("AIS sources", () => {
  test("TCP: lines split across writes, reconnect with back-off after the server drops us", async () => {
    let connection = 0;
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(socket) {
          connection++;
          if (connection === 1) {
            const line = `${position(211000001)}\r\n`;
            socket.write(line.slice(0, 20));
            setTimeout(() => {
              socket.write(`${line.slice(20)}${position(211000002)}\n!AIVDM,1,1,,A,13HOI:0P00`);
              setTimeout(() => socket.end(), 20); // drop mid-line
            }, 20);
          } else {
            socket.write(`${encodeStatic({ mmsi: 211000003, name: "RECONNECTED" }).join("\n")}\n`);
          }
        },
        data() {},
      },
    });
    open.push({ close: () => server.stop(true) });
    const source = new TcpSource({ host: "127.0.0.1", port: server.port, minBackoffMs: 20 });
    open.push(source);
    const messages = await take(source, 3);
    expect(messages.map((m) => m.mmsi)).toEqual([211000001, 211000002, 211000003]);
    expect(messages[2]).toMatchObject({ type: 5, shipname: "RECONNECTED" });
    expect(source.connections).toBe(2);
    expect(source.decoder.stats.malformed + source.decoder.stats.badChecksum).toBe(0); // the cut line was discarded
  });

  test("TCP: keeps retrying while nothing listens", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    const source = new TcpSource({ host: "127.0.0.1", port, minBackoffMs: 10, maxBackoffMs: 40 });
    open.push(source);
    await Bun.sleep(150);
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port,
      socket: { open: (s) => void s.write(`${position(211000009)}\n`), data() {} },
    });
    open.push({ close: () => server.stop(true) });
    expect((await take(source, 1)).map((m) => m.mmsi)).toEqual([211000009]);
  });

  test("UDP: datagrams with one or more lines", async () => {
    const seen: AisMessage[] = [];
    const source = new UdpSource({ port: 0, host: "127.0.0.1", onMessage: (m) => seen.push(m) });
    open.push(source);
    const port = await source.ready;
    const client = createSocket("udp4");
    open.push({ close: () => new Promise<void>((r) => client.close(() => r())) });
    const send = (text: string) => new Promise<void>((r) => client.send(text, port, "127.0.0.1", () => r()));
    await send(position(211000004));
    await send(`${position(211000005)}\r\n${encodeStatic({ mmsi: 211000006, name: "UDP" }).join("\r\n")}`);
    for (let i = 0; i < 100 && seen.length < 3; i++) await Bun.sleep(10);
    expect(seen.map((m) => m.mmsi)).toEqual([211000004, 211000005, 211000006]);
  });

  test("file replay: as fast as possible matches a direct decode; paced replay keeps its rate", async () => {
    const path = join(AIS_DIR, "gpsd/ais-raw-messages.log");
    const replay = new FileReplay({ path, clock: () => 0 });
    const messages = await take(replay, Number.POSITIVE_INFINITY);
    await replay.done;
    expect(messages).toEqual(decodeAll(aisLines("gpsd/ais-raw-messages.log")).messages);

    const dir = mkdtempSync(join(tmpdir(), "ais-replay-"));
    try {
      const file = join(dir, "paced.nmea");
      writeFileSync(file, Array.from({ length: 20 }, (_, i) => position(211000100 + i)).join("\n"));
      const started = performance.now();
      const paced = new FileReplay({ path: file, rate: 100 });
      const got = await take(paced, 20);
      expect(got).toHaveLength(20);
      expect(performance.now() - started).toBeGreaterThan(150);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
