/** The local runner's timings and sizes; every one has a default a server runs with, and tests shorten them. */
export interface RunnerLimits {
  /** How often a running run's runner stamps its heartbeat and looks for a cancel request. */
  heartbeatMs: number;
  /** A running run whose heartbeat is older than this has lost its runner, and is recovered. */
  staleAfterMs: number;
  /** How often a started runner looks for runs to recover: stale running runs, queued runs that lost their queue job. */
  sweepMs: number;
  /**
   * After a cancel or a time limit, how long a task may take to stop. A Databricks job is asked
   * to cancel and watched for up to two minutes, so the default leaves it that time.
   */
  abortGraceMs: number;
  /** On stop(), how long runs under way may take to end before they are recovered as interrupted. */
  stopGraceMs: number;
  /** Runs one process works at the same time (each workflow's own concurrency also applies). */
  parallelRuns: number;
  /** The length of one second of a workflow's own durations (time limit, retry backoff); tests shorten it. */
  secondMs: number;
}

export const DEFAULT_LIMITS: RunnerLimits = {
  heartbeatMs: 1_000,
  staleAfterMs: 30_000,
  sweepMs: 15_000,
  abortGraceMs: 130_000,
  stopGraceMs: 10_000,
  parallelRuns: 4,
  secondMs: 1_000,
};

/** How long a retry waits: the workflow's backoff, doubled for each attempt after the second. */
export function retryDelaySeconds(backoffSeconds: number, attempt: number): number {
  return attempt <= 1 ? 0 : backoffSeconds * 2 ** (attempt - 2);
}
