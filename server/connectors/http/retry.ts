/** How long a call waits before it is tried again: shared by http/call.ts and the S3 client, which makes its own requests. */

/** Three tries in all, 500 ms then 1 s apart unless the service says otherwise, and never a wait longer than 10 s. */
export const RETRY_DEFAULTS = { maxTries: 3, retryBaseDelayMs: 500, maxRetryWaitMs: 10_000 } as const;

/** Retry-After holds seconds or an HTTP date. */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
