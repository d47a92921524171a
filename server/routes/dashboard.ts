import type { FastifyInstance } from 'fastify';
import { and, count, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import {
  accessEvents,
  connections,
  dataTables,
  jobRuns,
  mailOutbox,
  qualityResults,
  roles,
  sessions,
  users,
  workflows,
} from '../db/schema';
import { CONNECTION_TYPE_CATALOGUE } from '../../common/connections';
import {
  connectionsByTypeAnswer,
  dailyJobRunsAnswer,
  dashboardCardsAnswer,
  dashboardPiesAnswer,
  securityChartAnswer,
} from '../../common/contract/answers/dashboard';
import { RUN_STATUSES } from '../../common/schemas/workflows';
import { z } from 'zod';
import { badRequest } from '../http/errors';
import { failingTables } from '../tables/records';
import { requireAuth } from '../auth/guard';

export interface DashboardCard {
  key: string;
  label: string;
  value: number;
  /** Where the console links the card to, when there is a list behind it. */
  link?: string;
}

/**
 * What the tenant holds, as cards. Later areas (tables, workflows, runs) add their own cards and
 * charts here.
 */
const TAGS = ['Dashboard'];

export async function dashboardRoutes(app: FastifyInstance) {
  const db = app.ctx.db;

  app.get(
    '/dashboard/topCards',
    { schema: { summary: 'Counts of what the company holds', tags: TAGS, response: { 200: dashboardCardsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const now = new Date();
      const [[userCounts], [roleCount], [sessionCount]] = await Promise.all([
        db
          .select({
            total: count(),
            active: sql<number>`count(*) filter (where ${users.status} = 'active' and ${users.isActive})`.mapWith(Number),
            invited: sql<number>`count(*) filter (where ${users.status} = 'invited')`.mapWith(Number),
          })
          .from(users)
          .where(eq(users.companyId, companyId)),
        db.select({ n: count() }).from(roles).where(eq(roles.companyId, companyId)),
        db
          .select({ n: count() })
          .from(sessions)
          .where(and(eq(sessions.companyId, companyId), isNull(sessions.endedAt), gt(sessions.expiresAt, now), eq(sessions.stage, 'full'))),
      ]);
      const today = new Date(now);
      today.setUTCHours(0, 0, 0, 0);
      const [[runs], [tables], [failing], [connectionCount]] = await Promise.all([
        db
          .select({
            workflows: sql<number>`(select count(*) from ${workflows} w where w.company_id = ${companyId})`.mapWith(Number),
            today: sql<number>`count(*) filter (where ${jobRuns.queuedAt} >= ${today})`.mapWith(Number),
            failedToday:
              sql<number>`count(*) filter (where ${jobRuns.queuedAt} >= ${today} and ${jobRuns.status} in ('failed', 'timed_out'))`.mapWith(
                Number,
              ),
          })
          .from(jobRuns)
          .where(eq(jobRuns.companyId, companyId)),
        db.select({ total: count() }).from(dataTables).where(eq(dataTables.companyId, companyId)),
        db.select({ n: count() }).from(dataTables).where(failingTables(companyId)),
        db.select({ n: count() }).from(connections).where(eq(connections.companyId, companyId)),
      ]);
      const cards: DashboardCard[] = [
        { key: 'workflows', label: 'Workflows', value: runs.workflows, link: '/workflows' },
        { key: 'runsToday', label: 'Job runs today', value: runs.today, link: '/job-runs' },
        { key: 'failedToday', label: 'Failed runs today', value: runs.failedToday, link: '/job-runs' },
        { key: 'tables', label: 'Tables', value: tables.total, link: '/tables' },
        { key: 'failingTables', label: 'Tables failing their checks', value: failing.n, link: '/tables' },
        { key: 'connections', label: 'Connections', value: connectionCount.n, link: '/connections' },
        { key: 'users', label: 'Users', value: userCounts.total },
        { key: 'activeUsers', label: 'Active users', value: userCounts.active },
        { key: 'invitedUsers', label: 'Invitations pending', value: userCounts.invited },
        { key: 'roles', label: 'Roles', value: roleCount.n },
        { key: 'openSessions', label: 'Signed-in sessions', value: sessionCount.n },
      ];
      return { message: 'Dashboard cards', data: { cards } };
    },
  );

  app.get(
    '/admin/dashboard/cards',
    {
      config: { adminOnly: true },
      schema: {
        summary: 'Sign-in, security and mail counts of the last 24 hours',
        tags: TAGS,
        response: { 200: dashboardCardsAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const since = new Date(Date.now() - 24 * 3600 * 1000);
      const [[events], [mail]] = await Promise.all([
        db
          .select({
            signins: sql<number>`count(*) filter (where ${accessEvents.event} = 'signin' and ${accessEvents.status} = 'success')`.mapWith(
              Number,
            ),
            failures: sql<number>`count(*) filter (where ${accessEvents.status} <> 'success')`.mapWith(Number),
          })
          .from(accessEvents)
          .where(and(eq(accessEvents.companyId, companyId), gt(accessEvents.createdAt, since))),
        db
          .select({ n: count() })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.companyId, companyId), gt(mailOutbox.createdAt, since))),
      ]);
      const cards: DashboardCard[] = [
        { key: 'signins24h', label: 'Sign-ins in the last 24 hours', value: events.signins },
        { key: 'securityFailures24h', label: 'Failed or blocked security events in the last 24 hours', value: events.failures },
        { key: 'mails24h', label: 'Mails sent in the last 24 hours', value: mail.n, link: '/outbox' },
      ];
      return { message: 'Admin dashboard cards', data: { cards } };
    },
  );

  /** Days from `from` to `to` (UTC dates), as YYYY-MM-DD. */
  const daysBetween = (from: Date, to: Date) => {
    const days: string[] = [];
    for (let d = new Date(from); d <= to; d.setUTCDate(d.getUTCDate() + 1)) days.push(d.toISOString().slice(0, 10));
    return days;
  };

  app.get(
    '/admin/dashboard/chart',
    {
      config: { adminOnly: true },
      schema: {
        summary: 'Sign-ins and failed security events per day, over 14 days',
        tags: TAGS,
        response: { 200: securityChartAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const to = new Date();
      to.setUTCHours(0, 0, 0, 0);
      const from = new Date(to.getTime() - 13 * 86_400_000);
      const rows = await db
        .select({
          date: sql<string>`to_char(${accessEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
          signins: sql<number>`count(*) filter (where ${accessEvents.event} = 'signin' and ${accessEvents.status} = 'success')`.mapWith(
            Number,
          ),
          failures: sql<number>`count(*) filter (where ${accessEvents.status} <> 'success')`.mapWith(Number),
        })
        .from(accessEvents)
        .where(and(eq(accessEvents.companyId, companyId), gte(accessEvents.createdAt, from)))
        .groupBy(sql`1`);
      const byDate = new Map(rows.map((row) => [row.date, row]));
      const days = daysBetween(from, to).map((date) => ({
        date,
        signins: byDate.get(date)?.signins ?? 0,
        failures: byDate.get(date)?.failures ?? 0,
      }));
      return { message: 'Sign-ins per day', data: { days } };
    },
  );

  const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-11-01');
  app.get<{ Params: { from: string; to: string }; Querystring: { jobRunStatus?: string } }>(
    '/dashboard/dailyJobRunTracker/:from/:to',
    {
      config: { policy: ['workflows', 'read'] },
      schema: { summary: 'Job runs per day and status between two dates', tags: TAGS, response: { 200: dailyJobRunsAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const parsed = z
        .object({
          from: day,
          to: day,
          jobRunStatus: z.union([z.enum(RUN_STATUSES), z.literal('')], { error: `must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
        })
        .safeParse({ ...request.params, ...request.query });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw badRequest(`${issue.path.join('.')}: ${issue.message}`);
      }
      const from = new Date(`${parsed.data.from}T00:00:00.000Z`);
      const to = new Date(`${parsed.data.to}T00:00:00.000Z`);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw badRequest('from: must be a date such as 2026-11-01');
      if (from > to) throw badRequest('from: must not be after to');
      if (to.getTime() - from.getTime() > 365 * 86_400_000) throw badRequest('to: the range may cover at most 366 days');
      const status = parsed.data.jobRunStatus || undefined;
      const rows = await db
        .select({ date: sql<string>`to_char(${jobRuns.queuedAt} at time zone 'UTC', 'YYYY-MM-DD')`, status: jobRuns.status, n: count() })
        .from(jobRuns)
        .where(
          and(
            eq(jobRuns.companyId, companyId),
            gte(jobRuns.queuedAt, from),
            lt(jobRuns.queuedAt, new Date(to.getTime() + 86_400_000)),
            status ? eq(jobRuns.status, status) : undefined,
          ),
        )
        .groupBy(sql`1`, jobRuns.status);
      const days = daysBetween(from, to).map((date) => {
        const entry: Record<string, number | string> = { date };
        for (const s of RUN_STATUSES) entry[s] = 0;
        for (const row of rows) if (row.date === date) entry[row.status] = row.n;
        return entry;
      });
      return { message: 'Job runs per day', data: { days } };
    },
  );

  app.get(
    '/dashboard/pieCharts',
    {
      config: { policy: ['workflows', 'read'] },
      schema: {
        summary: 'Runs and checks of the last 30 days, by status',
        tags: TAGS,
        response: { 200: dashboardPiesAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const since = new Date(Date.now() - 30 * 86_400_000);
      const [runs, checks] = await Promise.all([
        db
          .select({ status: jobRuns.status, count: count() })
          .from(jobRuns)
          .where(and(eq(jobRuns.companyId, companyId), gte(jobRuns.queuedAt, since)))
          .groupBy(jobRuns.status),
        db
          .select({ status: qualityResults.status, count: count() })
          .from(qualityResults)
          .where(and(eq(qualityResults.companyId, companyId), gte(qualityResults.endedAt, since)))
          .groupBy(qualityResults.status),
      ]);
      const ordered = <T extends { status: string }>(rows: T[], order: readonly string[]) =>
        [...rows].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
      return {
        message: 'Runs and checks of the last 30 days',
        data: { runsByStatus: ordered(runs, RUN_STATUSES), checksByResult: ordered(checks, ['passed', 'warned', 'failed', 'error']) },
      };
    },
  );

  app.get(
    '/dashboard/distinctConnections',
    { schema: { summary: 'Connections by type', tags: TAGS, response: { 200: connectionsByTypeAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const rows = await db
        .select({
          type: connections.type,
          count: count(),
          active: sql<number>`count(*) filter (where ${connections.isActive})`.mapWith(Number),
        })
        .from(connections)
        .where(eq(connections.companyId, companyId))
        .groupBy(connections.type);
      const byType = new Map(rows.map((row) => [row.type, row]));
      const data = CONNECTION_TYPE_CATALOGUE.filter((t) => byType.has(t.type)).map((t) => ({
        type: t.type,
        label: t.label,
        count: byType.get(t.type)!.count,
        active: byType.get(t.type)!.active,
      }));
      return { message: 'Connections by type', data };
    },
  );
}
