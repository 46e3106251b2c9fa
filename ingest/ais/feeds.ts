/**
 * Configured AIS feeds (PORTOLAN_AIS): `tcp://host:port` (reconnecting client), `udp://host:port`
 * (listener) or `file:///path` (replay), each decoded into the position store.
 */
import type { PositionStore } from "./positions.ts";
import { type AisSource, FileReplay, TcpSource, UdpSource } from "./sources.ts";

export function startAisFeeds(
  urls: readonly string[],
  store: PositionStore,
  now: () => number,
): { close(): Promise<void> } {
  const onMessage = (m: Parameters<PositionStore["update"]>[0]) => {
    store.update(m, now());
  };
  const sources: AisSource[] = urls.map((raw) => {
    const url = new URL(raw);
    const port = Number(url.port);
    switch (url.protocol) {
      case "tcp:":
        return new TcpSource({ host: url.hostname, port, onMessage, clock: now });
      case "udp:":
        return new UdpSource({ host: url.hostname || undefined, port, onMessage, clock: now });
      case "file:":
        return new FileReplay({ path: decodeURIComponent(url.pathname), onMessage, clock: now });
      default:
        throw new Error(`AIS feed ${raw}: use tcp://, udp:// or file://`);
    }
  });
  return { close: async () => void (await Promise.all(sources.map((s) => s.close()))) };
}
