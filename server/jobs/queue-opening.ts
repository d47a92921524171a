/**
 * The job queue of a server that leaves runs to `npm run worker` (RUN_WORKER=false), opened
 * without holding up the server's start.
 *
 * In a cluster, servers, workers and the database start in any order, and pg-boss's own start can
 * fail for a while: the database restarting, its schema being made or upgraded by another process.
 * A server that gave up there would exit, and its orchestrator would restart it in a loop. So the
 * server listens all the same, answers 503 on readiness (server/routes/ready.ts) so the load
 * balancer sends it nothing, and tries again, each wait twice the last up to a ceiling, until the
 * queue opens or the server stops.
 */

export interface QueueOpening {
  /** Settles once the queue is open (true), or when stop() ended the attempts first (false). */
  readonly opened: Promise<boolean>;
  /** Ends the attempts; one under way is left to finish. */
  stop(): void;
}

export interface QueueOpeningOptions {
  /** The wait after the first failure, then doubled after each one up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Where each failure is said, with the wait before the next attempt. */
  log: (message: string) => void;
}

export function keepOpeningQueue(open: () => Promise<void>, options: QueueOpeningOptions): QueueOpening {
  const firstDelayMs = options.firstDelayMs ?? 1_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const opened = (async () => {
    let delay = firstDelayMs;
    for (let attempt = 1; !stopped; attempt++) {
      try {
        await open();
        if (attempt > 1) options.log(`The job queue is open (attempt ${attempt}).`);
        return true;
      } catch (error) {
        if (stopped) break;
        options.log(`${(error as Error).message}; trying again in ${spoken(delay)} (attempt ${attempt}).`);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, delay);
        timer.unref();
      });
      delay = Math.min(maxDelayMs, delay * 2);
    }
    return false;
  })();

  return {
    opened,
    stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
    },
  };
}

const spoken = (ms: number) => (ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${ms} ms`);
