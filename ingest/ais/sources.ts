/**
 * AIS feeds: a TCP client that reconnects with back-off, a UDP listener and a file replay. Each
 * splits its bytes into lines, feeds an `AisDecoder` and hands out decoded messages through the
 * `onMessage` callback and/or async iteration.
 */
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { createReadStream } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { AisDecoder } from "./decoder.ts";
import type { AisMessage } from "./messages.ts";

export interface AisSourceOptions {
  decoder?: AisDecoder;
  onMessage?: (msg: AisMessage) => void;
  /** Receive-time clock in epoch ms (tests pin it). */
  clock?: () => number;
  /** Messages held for a slow async iterator before the oldest are dropped. Default 10,000. */
  maxQueue?: number;
}

/** Longest line kept while waiting for its newline; AIS sentences are at most ~100 bytes. */
const MAX_LINE = 4096;

export abstract class AisSource implements AsyncIterable<AisMessage> {
  readonly decoder: AisDecoder;
  /** Messages dropped because an iterator fell `maxQueue` behind; overlong lines discarded. */
  readonly sourceStats = { dropped: 0, overlong: 0 };
  protected closed = false;
  private carry = "";
  private readonly onMessage?: (msg: AisMessage) => void;
  private readonly clock: () => number;
  private readonly maxQueue: number;
  private queue: AisMessage[] | null = null;
  private wake: (() => void) | null = null;

  constructor(options: AisSourceOptions) {
    this.decoder = options.decoder ?? new AisDecoder();
    this.onMessage = options.onMessage;
    this.clock = options.clock ?? Date.now;
    this.maxQueue = options.maxQueue ?? 10_000;
  }

  /** Feeds raw text; a trailing partial line waits for the next chunk. */
  protected feed(text: string): void {
    const parts = (this.carry + text).split("\n");
    this.carry = parts.pop()!;
    if (this.carry.length > MAX_LINE) {
      this.carry = "";
      this.sourceStats.overlong++;
    }
    const at = this.clock();
    for (const line of parts) {
      const msg = this.decoder.push(line.endsWith("\r") ? line.slice(0, -1) : line, at);
      if (msg) this.emit(msg);
    }
  }

  /** Forgets a partial line (the connection carrying it is gone). */
  protected dropPartial(): void {
    this.carry = "";
  }

  private emit(msg: AisMessage): void {
    this.onMessage?.(msg);
    if (!this.queue) return;
    this.queue.push(msg);
    if (this.queue.length > this.maxQueue) {
      this.queue.shift();
      this.sourceStats.dropped++;
    }
    this.wake?.();
  }

  /** Ends the source; pending iterations finish after the queued messages. */
  close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    return this.stop();
  }

  protected abstract stop(): Promise<void>;

  async *[Symbol.asyncIterator](): AsyncIterator<AisMessage> {
    this.queue ??= [];
    const queue = this.queue;
    while (true) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }
}

export interface TcpSourceOptions extends AisSourceOptions {
  host: string;
  port: number;
  /** First reconnect delay; doubles per failed attempt up to `maxBackoffMs`. Default 500 ms. */
  minBackoffMs?: number;
  /** Default 30 s. */
  maxBackoffMs?: number;
}

/** TCP client (e.g. an AIS-catcher or aggregator feed); reconnects until closed. */
export class TcpSource extends AisSource {
  /** Successful connections so far (1 + reconnects). */
  connections = 0;
  private socket: Socket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private readonly options: TcpSourceOptions;

  constructor(options: TcpSourceOptions) {
    super(options);
    this.options = options;
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    const socket = createConnection({ host: this.options.host, port: this.options.port });
    this.socket = socket;
    socket.setEncoding("latin1");
    socket.on("connect", () => {
      this.connections++;
    });
    socket.on("data", (chunk: string) => {
      // Back-off resets only once the peer sends data: accept-then-drop servers still back off.
      this.attempt = 0;
      this.feed(chunk);
    });
    socket.on("error", () => {}); // 'close' follows and schedules the retry
    socket.on("close", () => {
      this.dropPartial();
      if (this.closed) return;
      const base = this.options.minBackoffMs ?? 500;
      const delay = Math.min(this.options.maxBackoffMs ?? 30_000, base * 2 ** this.attempt);
      this.attempt++;
      // Jitter keeps many clients of one feed from reconnecting in lockstep.
      this.timer = setTimeout(() => this.connect(), delay * (0.8 + Math.random() * 0.4));
    });
  }

  protected stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
    return Promise.resolve();
  }
}

export interface UdpSourceOptions extends AisSourceOptions {
  /** 0 picks a free port (see `ready`). */
  port: number;
  host?: string;
}

/** UDP listener: each datagram carries whole lines. */
export class UdpSource extends AisSource {
  /** Resolves with the bound port. */
  readonly ready: Promise<number>;
  private readonly socket: UdpSocket;

  constructor(options: UdpSourceOptions) {
    super(options);
    this.socket = createSocket("udp4");
    this.socket.on("message", (data) => {
      this.feed(`${data.toString("latin1")}\n`);
    });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once("error", reject);
      this.socket.bind(options.port, options.host ?? "0.0.0.0", () => resolve(this.socket.address().port));
    });
  }

  protected stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

export interface FileReplayOptions extends AisSourceOptions {
  path: string;
  /** Lines per second; unset replays as fast as the decoder goes. */
  rate?: number;
}

/** Replays a log file line by line; `done` resolves at the end of the file (the source then closes). */
export class FileReplay extends AisSource {
  readonly done: Promise<void>;
  private stream: ReturnType<typeof createReadStream> | null = null;
  private readonly replay: FileReplayOptions;

  constructor(options: FileReplayOptions) {
    super(options);
    this.replay = options;
    this.done = this.run()
      .catch((error: unknown) => {
        // Closing mid-file destroys the stream; anything else (a missing file) is the caller's.
        if (!this.closed) throw error;
      })
      .finally(() => this.close());
  }

  private async run(): Promise<void> {
    const stream = createReadStream(this.replay.path, { encoding: "latin1", highWaterMark: 64 * 1024 });
    this.stream = stream;
    const rate = this.replay.rate;
    const started = performance.now();
    let sent = 0;
    for await (const chunk of stream as AsyncIterable<string>) {
      if (this.closed) break;
      if (!rate) {
        this.feed(chunk);
        continue;
      }
      // Paced: one line at a time, sleeping whenever we are ahead of the schedule.
      const lines = chunk.split(/(?<=\n)/);
      for (const line of lines) {
        if (this.closed) break;
        const due = started + (sent / rate) * 1000;
        const ahead = due - performance.now();
        if (ahead > 1) await new Promise((r) => setTimeout(r, ahead));
        this.feed(line);
        if (line.endsWith("\n")) sent++;
      }
    }
    this.feed("\n"); // the last line may lack its newline
  }

  protected stop(): Promise<void> {
    this.stream?.destroy();
    return Promise.resolve();
  }
}
