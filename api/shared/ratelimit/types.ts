/**
 * Rolling-window rate limiting (a sliding log: every admitted request is remembered for one window).
 * Rejected requests are not logged, so a client that backs off regains capacity as soon as its
 * oldest admitted request leaves the window.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the oldest counted request leaves the window, freeing a slot. */
  resetAtMs: number;
}

export interface RateLimiter {
  hit(bucket: string, limit: number): Promise<RateDecision>;
  close(): Promise<void>;
}
