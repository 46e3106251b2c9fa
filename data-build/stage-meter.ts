/** A stage's own wall time and peak memory (sampled where the stage calls sample()): its summary's figures. */
export class StageMeter {
  private readonly started = performance.now();
  private peak = process.memoryUsage().rss;

  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage().rss);
  }

  get seconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  /** Peak resident memory so far, in whole MB. */
  get peakMb(): number {
    this.sample();
    return Math.round(this.peak / 1e6);
  }
}
