/**
 * The process's connection to REDIS_URL, shared by the rate limiter and the compat cache and usage
 * counters (one socket, one state). Redis is an accelerator, not a dependency requests wait on: the
 * policy is to FAIL OPEN. While it is unreachable every caller runs its in-process fallback at once
 * (no offline queue, a short command timeout), one warning is logged when it goes down and one when
 * it is back, the client reconnects on its own with capped back-off, and /healthz reports the state.
 */
import { createClient, ErrorReply } from "redis";
import { log } from "../../common/log.ts";
import { type DependencyState, trackRedis } from "./health.ts";

/** A reply that takes longer than this counts as an outage; callers fall back. */
export const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect back-off: 100 ms doubling, capped here (plus jitter) so recovery is noticed quickly. */
const RECONNECT_CAP_MS = 3_000;
/** While down with an open socket (a stalled server), how often a PING checks whether it answers. */
const PROBE_MS = 1_000;
/** At most one log line per this long for errors Redis itself answers (WRONGTYPE, OOM, ...). */
const REPLY_ERROR_LOG_MS = 60_000;

const makeClient = (url: string) =>
  createClient({
    url,
    // A command issued while disconnected fails at once instead of waiting for the reconnect.
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Never give up (the default stops on a socket timeout): recovery must stay automatic.
      reconnectStrategy: (retries: number) =>
        Math.min(100 * 2 ** Math.min(retries, 10), RECONNECT_CAP_MS) + Math.floor(Math.random() * 200),
    },
  });
export type RedisClient = ReturnType<typeof makeClient>;

/** The URL without its password, for logs. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "REDIS_URL";
  }
}

class Timeout extends Error {}

export class RedisLink {
  readonly client: RedisClient;
  private up = false;
  private probe: ReturnType<typeof setInterval> | null = null;
  private lastReplyErrorLog = 0;
  private closed = false;
  /** Whether the outage was announced, so it is announced once and its end too. */
  private warnedDown = false;
  /** Listeners for the down→up transition (e.g. flushing counts kept locally during an outage). */
  private readonly onUp = new Set<() => void>();

  constructor(private readonly url: string) {
    this.client = makeClient(url);
    // Every failed reconnect emits an error; only the transition is logged (markDown).
    this.client.on("error", (err: Error) => this.markDown(err.message));
    this.client.on("end", () => this.markDown("connection closed"));
    this.client.on("ready", () => this.markUp());
  }

  get state(): DependencyState {
    return this.up ? "up" : "down";
  }

  /** Connects, waiting at most for the first attempt: a Redis that is down at start-up is not fatal. */
  async start(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onError: (() => void) | undefined;
    // connect() keeps retrying until it succeeds; it rejects only when the link is closed.
    const connected = this.client.connect().then(
      () => true,
      () => false,
    );
    const failed = new Promise<false>((resolve) => {
      onError = () => resolve(false);
      this.client.once("error", onError);
      timer = setTimeout(resolve, CONNECT_TIMEOUT_MS + 500, false);
    });
    const ok = await Promise.race([connected, failed]);
    clearTimeout(timer);
    if (onError) this.client.off("error", onError);
    if (!ok) this.markDown("unreachable at start-up");
  }

  /** Calls `listener` on every down→up transition; returns the unsubscribe. */
  whenUp(listener: () => void): () => void {
    this.onUp.add(listener);
    return () => this.onUp.delete(listener);
  }

  /**
   * `op` against Redis, or `fallback` when Redis is down, slow or failing. Never throws for Redis's
   * sake and never waits longer than COMMAND_TIMEOUT_MS for it.
   */
  async run<T>(op: (client: RedisClient) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.up || !this.client.isReady) return fallback();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // MULTI is not covered by the client's command timeout, hence this one around every op.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Timeout(`no reply within ${COMMAND_TIMEOUT_MS} ms`)),
          COMMAND_TIMEOUT_MS,
        );
      });
      return await Promise.race([op(this.client), deadline]);
    } catch (err) {
      if (err instanceof ErrorReply) {
        // Redis answered, with an error: the connection is fine, this request falls back.
        const now = Date.now();
        if (now - this.lastReplyErrorLog > REPLY_ERROR_LOG_MS) {
          this.lastReplyErrorLog = now;
          log.warn(`redis ${redacted(this.url)}: ${err.message}; falling back for this call`);
        }
      } else this.markDown((err as Error).message);
      return fallback();
    } finally {
      clearTimeout(timer);
    }
  }

  private markDown(reason: string): void {
    if (this.closed) return;
    this.up = false;
    this.startProbe();
    if (this.warnedDown) return;
    this.warnedDown = true;
    log.warn(
      `redis ${redacted(this.url)} is down (${reason}): failing open; rate limits use each process's own window, the compat cache and usage counters work in this process until it is back`,
    );
  }

  private markUp(): void {
    if (this.up || this.closed) return;
    this.up = true;
    this.stopProbe();
    if (!this.warnedDown) return; // the first connection is not news
    this.warnedDown = false;
    log.warn(`redis ${redacted(this.url)} is back up: shared rate windows, cache and counters resume`);
    for (const listener of this.onUp) listener();
  }

  /** A stalled server keeps the socket open, so no "ready" will come: ask it directly now and then. */
  private startProbe(): void {
    if (this.probe) return;
    let probing = false;
    this.probe = setInterval(() => {
      if (probing || !this.client.isReady) return; // reconnecting: the "ready" event marks it up
      probing = true;
      this.client
        .ping()
        .then(
          () => this.markUp(),
          () => {},
        )
        .finally(() => {
          probing = false;
        });
    }, PROBE_MS);
    this.probe.unref?.();
  }

  private stopProbe(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopProbe();
    this.onUp.clear();
    // Graceful (pending replies first) while Redis answers, bounded: a stalled server never replies.
    if (this.up && this.client.isReady) {
      const quit = this.client.close().catch(() => {});
      await Promise.race([quit, new Promise((r) => setTimeout(r, COMMAND_TIMEOUT_MS))]);
    }
    if (this.client.isOpen) this.client.destroy();
  }
}

/** One link per URL in the process, shared and reference-counted. */
const links = new Map<string, { link: RedisLink; started: Promise<RedisLink>; refs: number }>();

export function acquireRedis(url: string): Promise<RedisLink> {
  let entry = links.get(url);
  if (!entry) {
    const link = new RedisLink(url);
    entry = { link, started: link.start().then(() => link), refs: 0 };
    links.set(url, entry);
    trackRedis(url, () => link.state);
  }
  entry.refs++;
  return entry.started;
}

export async function releaseRedis(url: string): Promise<void> {
  const entry = links.get(url);
  if (!entry || --entry.refs > 0) return;
  links.delete(url);
  trackRedis(url, null);
  await entry.started;
  await entry.link.close();
}
