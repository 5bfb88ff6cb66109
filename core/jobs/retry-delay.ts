/** Exponential back-off for failed jobs: 1 s, 2 s, 4 s, ... capped at one hour. */
export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 3_600_000;

export const retryDelayMs = (attempts: number, baseMs = RETRY_BASE_MS, capMs = RETRY_CAP_MS): number =>
  Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
