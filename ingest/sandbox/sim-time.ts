/** Time units of the sandbox simulators, in ms, and the whole-hour rounding their schedules use. */
export const MIN = 60_000;
export const H = 60 * MIN;
export const D = 24 * H;

export const hour = (ms: number) => Math.round(ms / H) * H;
