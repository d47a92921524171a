// Loaded into the server by tests/bench/rate-limits.mjs (`node --import`) to measure the design the
// server does not use: one `insert … on conflict do update … returning` per call.
import { sql } from 'drizzle-orm';
import { RateLimiter, type RateLimitSettings } from '../../server/auth/rate-limit';
import { selectRows, type Db } from '../../server/db/client';
import { withTenant } from '../../server/db/tenant-scope';
import { tooManyRequests } from '../../server/http/errors';
import type { AuthContext } from '../../server/platform/auth-context';

RateLimiter.prototype.admit = async function admitWithOneWritePerCall(this: RateLimiter, auth: AuthContext) {
  const { db, settings } = this as unknown as { db: Db; settings: RateLimitSettings };
  const limit = auth.apiKeyId ? settings.apiKeyPerMinute : settings.sessionPerMinute;
  if (limit === 0) return;
  const subject = auth.apiKeyId ? `api-key:${auth.apiKeyId}` : `session:${auth.sessionId}`;
  const now = this.clock();
  const windowStart = now - (now % 60_000);
  const [row] = await withTenant(auth.companyId, () =>
    selectRows<{ calls: number }>(
      db,
      sql`insert into rate_limits (company_id, subject, window_start, calls)
          values (${auth.companyId}::uuid, ${subject}, ${new Date(windowStart).toISOString()}::timestamptz, 1)
          on conflict (company_id, subject, window_start) do update set calls = rate_limits.calls + 1
          returning calls`,
    ),
  );
  if (row.calls > limit) throw tooManyRequests('over the limit', Math.ceil((windowStart + 60_000 - now) / 1000));
};
