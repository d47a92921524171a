import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { selectRows, type Db } from '../db/client';
import { withTenant } from '../db/tenant-scope';
import { tooManyRequests } from '../http/errors';
import type { AuthContext } from '../platform/auth-context';
import type { AppContext } from '../platform/context';
import { describeWait } from './throttle';

/**
 * Calls a minute per API key and per signed-in session, counted where every server on the
 * database sees them (the `rate_limits` table, migration 0021), in fixed windows of a clock
 * minute.
 *
 * Writing the shared row on every call would put a write, and a wait on the row's lock when a
 * caller's calls come at once, in front of every authenticated request. So each server counts
 * the calls it admits in memory and adds them to the shared rows in one statement per company:
 * every second, and as soon as one caller has `unsyncedAllowance` calls not yet added. It admits
 * a call while the caller's count last read from the database plus its own calls since stays
 * under the limit; a caller it has not synced for `unsyncedAllowance` calls waits for the sync.
 * Each server therefore admits at most `unsyncedAllowance` calls its view of the others did not
 * include, and a caller spread over S servers may get up to S × that allowance more than the limit
 * in a minute (one server: none). As in any fixed window, a caller may also make the limit's
 * worth at the end of one minute and again at the start of the next.
 */

const WINDOW_MS = 60_000;
const SYNC_EVERY_MS = 1_000;

export interface RateLimitSettings {
  /** 0: no limit for API keys. */
  apiKeyPerMinute: number;
  /** 0: no limit for sessions. */
  sessionPerMinute: number;
}

/**
 * The calls a server may admit for one caller before it adds them to the shared count: 2% of the
 * limit (12 of 600), between 1 and 50. The overshoot across servers grows with it; the writes of a
 * caller calling faster than one allowance a second shrink with it.
 */
export function unsyncedAllowance(limit: number): number {
  return Math.max(1, Math.min(50, Math.floor(limit / 50)));
}

/** One caller's calls in one window, as this server knows them. */
interface CallerCount {
  companyId: string;
  subject: string;
  windowStart: number;
  /** Every server's calls as the database answered at this server's last sync (its own included). */
  shared: number;
  /** Admitted here, being added to the database now. */
  sending: number;
  /** Admitted here since. */
  pending: number;
}

export class RateLimiter {
  /** Milliseconds since the epoch; tests move it instead of waiting. */
  clock: () => number = Date.now;
  private readonly counts = new Map<string, CallerCount>();
  /** The window whose older rows each company last had deleted by this server. */
  private readonly cleaned = new Map<string, number>();
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly settings: RateLimitSettings,
    private readonly warn: (error: unknown) => void = () => {},
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.sync().catch(this.warn), SYNC_EVERY_MS);
    // A server with nothing else to do stops; its last counts are added at close.
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync().catch(this.warn);
  }

  /** Counts the call, or throws 429 when its caller has used the minute's calls. */
  async admit(auth: AuthContext): Promise<void> {
    const byKey = Boolean(auth.apiKeyId);
    const limit = byKey ? this.settings.apiKeyPerMinute : this.settings.sessionPerMinute;
    if (limit === 0) return;
    const subject = byKey ? `api-key:${auth.apiKeyId}` : `session:${auth.sessionId}`;
    const allowance = unsyncedAllowance(limit);
    for (;;) {
      const now = this.clock();
      const count = this.countOf(auth.companyId, subject, now);
      // Counts only grow inside a window, so a refusal read from an old view is still right.
      if (count.shared + count.sending + count.pending >= limit) {
        const seconds = Math.max(1, Math.ceil((count.windowStart + WINDOW_MS - now) / 1000));
        const message = byKey
          ? `Too many requests for this API key: at most ${limit} a minute. Try again in ${describeWait(seconds)}.`
          : `Too many requests for this session: at most ${limit} a minute. Try again in ${describeWait(seconds)}.`;
        throw tooManyRequests(message, seconds);
      }
      if (count.sending + count.pending < allowance) {
        count.pending += 1;
        if (count.sending + count.pending >= allowance) this.sync().catch(this.warn);
        return;
      }
      await this.sync();
    }
  }

  /** Adds the calls admitted here to the shared counts, and reads those back. */
  async sync(): Promise<void> {
    while (this.syncing) await this.syncing;
    const due = [...this.counts.values()].filter((count) => count.pending > 0);
    if (due.length === 0) return this.forgetPastWindows();
    this.syncing = this.send(due).finally(() => (this.syncing = null));
    await this.syncing;
  }

  private countOf(companyId: string, subject: string, now: number): CallerCount {
    const windowStart = now - (now % WINDOW_MS);
    const key = `${companyId}/${subject}/${windowStart}`;
    let count = this.counts.get(key);
    if (!count) this.counts.set(key, (count = { companyId, subject, windowStart, shared: 0, sending: 0, pending: 0 }));
    return count;
  }

  private async send(due: CallerCount[]): Promise<void> {
    for (const count of due) {
      count.sending = count.pending;
      count.pending = 0;
    }
    const now = this.clock();
    const currentWindow = now - (now % WINDOW_MS);
    let failure: unknown = null;
    for (const [companyId, counts] of groupByCompany(due)) {
      try {
        // Each company's counts are its own rows: row-level security holds the statement to them.
        const rows = await withTenant(companyId, async () => {
          const added = await addCounts(this.db, companyId, counts);
          if ((this.cleaned.get(companyId) ?? 0) < currentWindow) {
            await this.db.execute(
              sql`delete from rate_limits where company_id = ${companyId}::uuid and window_start < ${new Date(currentWindow).toISOString()}::timestamptz`,
            );
            this.cleaned.set(companyId, currentWindow);
          }
          return added;
        });
        const calls = new Map(rows.map((row) => [`${row.subject}/${Number(row.window_ms)}`, Number(row.calls)]));
        for (const count of counts) {
          count.shared = Math.max(count.shared, calls.get(`${count.subject}/${count.windowStart}`) ?? 0);
          count.sending = 0;
        }
      } catch (error) {
        // Kept to be added at the next sync; meanwhile they still count here.
        for (const count of counts) {
          count.pending += count.sending;
          count.sending = 0;
        }
        failure ??= error;
      }
    }
    this.forgetPastWindows();
    if (failure) throw failure;
  }

  private forgetPastWindows(): void {
    const now = this.clock();
    const currentWindow = now - (now % WINDOW_MS);
    for (const [key, count] of this.counts) {
      if (count.windowStart < currentWindow && count.pending === 0 && count.sending === 0) this.counts.delete(key);
    }
    for (const [companyId, window] of this.cleaned) if (window < currentWindow) this.cleaned.delete(companyId);
  }
}

function groupByCompany(counts: CallerCount[]): Map<string, CallerCount[]> {
  const groups = new Map<string, CallerCount[]>();
  for (const count of counts) groups.set(count.companyId, [...(groups.get(count.companyId) ?? []), count]);
  return groups;
}

/** One statement for all of a company's callers: adds each count to its row and answers the totals. */
function addCounts(db: Db, companyId: string, counts: CallerCount[]) {
  const entries = counts.map((count) => ({
    subject: count.subject,
    window_start: new Date(count.windowStart).toISOString(),
    calls: count.sending,
  }));
  return selectRows<{ subject: string; window_ms: number | string; calls: number | string }>(
    db,
    sql`insert into rate_limits (company_id, subject, window_start, calls)
        select ${companyId}::uuid, c.subject, c.window_start, c.calls
        from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as c(subject text, window_start timestamptz, calls integer)
        on conflict (company_id, subject, window_start) do update set calls = rate_limits.calls + excluded.calls
        returning subject, (extract(epoch from window_start) * 1000)::float8 as window_ms, calls`,
  );
}

const limiters = new WeakMap<AppContext, RateLimiter>();

/** The limiter of the app's requests, when a limit is on (see `rateLimiterOf`). */
export function registerRateLimits(app: FastifyInstance): RateLimiter | null {
  const settings = app.ctx.config.rateLimits;
  if (settings.apiKeyPerMinute === 0 && settings.sessionPerMinute === 0) return null;
  const limiter = new RateLimiter(app.ctx.db, settings, (error) => app.log.warn({ err: error }, 'rate-limit counts not added'));
  limiters.set(app.ctx, limiter);
  limiter.start();
  app.addHook('onClose', () => limiter.stop());
  return limiter;
}

/** The limiter an app counts its calls with; null when both limits are off. */
export function rateLimiterOf(app: FastifyInstance): RateLimiter | null {
  return limiters.get(app.ctx) ?? null;
}
