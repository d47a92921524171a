import { and, desc, eq, gt, gte, ilike, inArray, isNotNull, isNull, lte, not, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { enumChoiceFilter } from '../audits/enum-filter';
import { sessions, users } from '../db/schema';
import { SESSION_STATUSES } from '../../common/contract/sessions';
import { PARTIAL_SESSION_MINUTES } from '../auth/session-service';
import { SETTING_LIMITS } from '../../common/settings';
import { cappedCount, countCard, daysAgo, startOfTodayUtc } from '../audits/counts';
import { namesOf, usersWho } from '../audits/people';
import {
  DEFERRED_JOIN_FROM,
  deferredIds,
  anyOf,
  choicesOf,
  filterBody,
  idChoiceFilter,
  likePattern,
  listPage,
  orderBy,
  periodAndSearchFilters,
  within,
  type Card,
  type Choice,
  type ListAnswer,
  inlined,
} from '../http/lists';

export const sessionFilterBody = filterBody({
  user: idChoiceFilter,
  status: enumChoiceFilter(SESSION_STATUSES),
  ...periodAndSearchFilters,
});
export type SessionFilter = Partial<z.output<typeof sessionFilterBody>>;

const SORTABLE = {
  isDeleted: null,
  createdAt: sessions.createdAt,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
  endedAt: sessions.endedAt,
} as const;
/** An order of the lists: one of the contract's sortable fields, going up or down. */
export interface SessionSort {
  order: 'ASC' | 'DESC';
  field: keyof typeof SORTABLE;
}
/** The spec's order: sessions still open first, then the newest. */
export const DEFAULT_SORT: SessionSort = { order: 'ASC', field: 'isDeleted' };

export interface SessionRow {
  id: string;
  userId: string;
  email: string | null;
  userName: string | null;
  ip: string | null;
  userAgent: string | null;
  stage: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endReason: string | null;
  /** Over: ended, or expired without anyone ending it. */
  isDeleted: boolean;
  /** Signed in now: a full session, neither ended nor expired. */
  active: boolean;
  impersonatorUserId: string | null;
  impersonatorEmail: string | null;
  /** The caller's own session. */
  current: boolean;
}

/**
 * Session lists, sized for a tenant with a million session rows. The one index that can order
 * them is (company_id, created_at); "still open" has no index, but every open session was
 * created less than the longest session lifetime ago (expiry is set at creation and never
 * extended), so bounding open sessions by created_at turns "find the open ones" into a short
 * range of that index instead of a walk through every session the company ever had.
 */
export class SessionLists {
  /**
   * The longest a session can live, plus a minute for clock skew between instances: the server's
   * SESSION_TTL_MINUTES, or the longest lifetime a company may set in its service settings.
   */
  private readonly lifetimeMs: number;

  constructor(
    private readonly db: Db,
    config: Pick<Config, 'sessionTtlMinutes'>,
  ) {
    this.lifetimeMs = (Math.max(config.sessionTtlMinutes, SETTING_LIMITS.sessionLifetimeMinutes.max, PARTIAL_SESSION_MINUTES) + 1) * 60_000;
  }

  /** Neither ended nor expired (the stage does not matter: a sign-in waiting for its code is open too). */
  private open(now: Date): SQL {
    return and(isNull(sessions.endedAt), gt(sessions.expiresAt, now), gt(sessions.createdAt, new Date(now.getTime() - this.lifetimeMs)))!;
  }

  private active(now: Date): SQL {
    return and(this.open(now), eq(sessions.stage, 'full'))!;
  }

  conditions(companyId: string, filter: SessionFilter, now: Date): SQL {
    const statuses = filter.status ?? [];
    const status =
      statuses.length === 1
        ? statuses[0] === 'active'
          ? this.active(now)
          : or(isNotNull(sessions.endedAt), lte(sessions.expiresAt, now))
        : undefined;
    return and(
      eq(sessions.companyId, companyId),
      anyOf(sessions.userId, filter.user ?? []),
      status,
      within(sessions.createdAt, filter.startDate ?? null, filter.endDate ?? null),
      this.searching(companyId, filter.search ?? ''),
    )!;
  }

  /** Email and names live on users: the matching users' ids are found first (a small table), then sessions by user_id. */
  private searching(companyId: string, text: string): SQL | undefined {
    if (!text) return undefined;
    const pattern = likePattern(text);
    const people = this.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.companyId, companyId),
          or(
            ilike(users.email, pattern),
            ilike(users.firstName, pattern),
            ilike(users.lastName, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ),
        ),
      );
    return or(inArray(sessions.userId, people), ilike(sessions.ip, pattern), ilike(sessions.userAgent, pattern));
  }

  async list(
    viewer: { companyId: string; sessionId: string },
    filter: SessionFilter,
    sort: SessionSort,
    offset: number,
    limit: number,
    now = new Date(),
  ): Promise<ListAnswer<SessionRow>> {
    const where = this.conditions(viewer.companyId, filter, now);
    const select = async (condition: SQL | undefined, ordering: SQL[], o: number, l: number) =>
      o >= DEFERRED_JOIN_FROM
        ? this.db
            .select()
            .from(sessions)
            .where(await deferredIds(this.db, { table: sessions, id: sessions.id, where: and(where, condition), order: ordering }, o, l))
            .orderBy(...ordering)
            .limit(inlined(l))
        : this.db
            .select()
            .from(sessions)
            .where(and(where, condition))
            .orderBy(...ordering)
            .offset(inlined(o))
            .limit(inlined(l));
    const newestFirst = [desc(sessions.createdAt), desc(sessions.id)];

    const page = async (o: number, l: number) => {
      let rows: Array<typeof sessions.$inferSelect>;
      if (sort.field === 'isDeleted') {
        // Two ranges, each read newest first from the index, one after the other.
        const open = this.open(now);
        const [first, second] = sort.order === 'ASC' ? [open, not(open)] : [not(open), open];
        rows = await select(first, newestFirst, o, l);
        if (rows.length < l) {
          const before = rows.length > 0 || o === 0 ? o + rows.length : await this.countUpTo(and(where, first)!, o);
          rows = rows.concat(await select(second, newestFirst, Math.max(0, o - before), l - rows.length));
        }
      } else {
        const column = SORTABLE[sort.field];
        const ordering =
          sort.field === 'createdAt'
            ? [orderBy(sessions.createdAt, sort.order), orderBy(sessions.id, sort.order)]
            : [orderBy(column, sort.order), ...newestFirst];
        rows = await select(undefined, ordering, o, l);
      }
      return this.named(viewer, rows, now);
    };
    return listPage(this.db, { page, countFrom: sessions, where }, offset, limit);
  }

  /** How many rows match, when there are at most `max` of them (one more is read to know). */
  private async countUpTo(where: SQL, max: number): Promise<number> {
    const capped = this.db
      .select({ one: sql`1` })
      .from(sessions)
      .where(where)
      .limit(max + 1)
      .as('capped');
    const [{ n }] = await this.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped);
    return n;
  }

  private async named(
    viewer: { companyId: string; sessionId: string },
    rows: Array<typeof sessions.$inferSelect>,
    now: Date,
  ): Promise<SessionRow[]> {
    const names = await namesOf(
      this.db,
      viewer.companyId,
      rows.flatMap((r) => [r.userId, r.impersonatorUserId]),
    );
    return rows.map((r) => {
      const over = r.endedAt !== null || r.expiresAt <= now;
      const user = names.get(r.userId);
      return {
        id: r.id,
        userId: r.userId,
        email: user?.email ?? null,
        userName: user?.name ?? null,
        ip: r.ip,
        userAgent: r.userAgent,
        stage: r.stage,
        createdAt: r.createdAt,
        lastSeenAt: r.lastSeenAt,
        expiresAt: r.expiresAt,
        endedAt: r.endedAt,
        endReason: r.endReason,
        isDeleted: over,
        active: !over && r.stage === 'full',
        impersonatorUserId: r.impersonatorUserId,
        impersonatorEmail: r.impersonatorUserId ? (names.get(r.impersonatorUserId)?.email ?? null) : null,
        current: r.id === viewer.sessionId,
      };
    });
  }

  async props(companyId: string): Promise<{ user: Choice[]; status: Choice[] }> {
    // One probe of (company_id, user_id) per user of the company.
    const user = await usersWho(
      this.db,
      companyId,
      (userId) => sql`exists (select 1 from ${sessions} where ${sessions.companyId} = ${companyId} and ${sessions.userId} = ${userId})`,
    );
    return { user, status: choicesOf(SESSION_STATUSES) };
  }

  async cards(companyId: string, now = new Date()): Promise<Card[]> {
    const tenant = eq(sessions.companyId, companyId);
    const weekAgo = daysAgo(7, now);
    const [openNow, signIns, endedByAdmin, impersonating] = await Promise.all([
      cappedCount(this.db, sessions, and(tenant, this.active(now))),
      cappedCount(
        this.db,
        sessions,
        and(tenant, gte(sessions.createdAt, startOfTodayUtc(now)), eq(sessions.stage, 'full'), isNull(sessions.impersonatorUserId)),
      ),
      // Ended in the last 7 days means created at most a lifetime before that: the bound lets the index serve.
      cappedCount(
        this.db,
        sessions,
        and(
          tenant,
          gte(sessions.createdAt, new Date(weekAgo.getTime() - this.lifetimeMs)),
          eq(sessions.endReason, 'ended_by_admin'),
          gte(sessions.endedAt, weekAgo),
        ),
      ),
      cappedCount(this.db, sessions, and(tenant, this.active(now), isNotNull(sessions.impersonatorUserId))),
    ]);
    return [
      countCard('openNow', 'Signed in now', openNow, '/sessions'),
      countCard('signInsToday', 'Sign-ins today', signIns),
      countCard('endedByAdmin7Days', 'Ended by an admin in the last 7 days', endedByAdmin),
      countCard('impersonationsOpen', 'Impersonation sessions open', impersonating),
    ];
  }
}
