import type { FastifyInstance } from 'fastify';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { accessEvents, mailOutbox, roles, sessions, users } from '../db/schema';
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
export async function dashboardRoutes(app: FastifyInstance) {
  const db = app.ctx.db;

  app.get('/dashboard/topCards', async (request) => {
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
    const cards: DashboardCard[] = [
      { key: 'users', label: 'Users', value: userCounts.total },
      { key: 'activeUsers', label: 'Active users', value: userCounts.active },
      { key: 'invitedUsers', label: 'Invitations pending', value: userCounts.invited },
      { key: 'roles', label: 'Roles', value: roleCount.n },
      { key: 'openSessions', label: 'Signed-in sessions', value: sessionCount.n },
    ];
    return { message: 'Dashboard cards', data: { cards } };
  });

  app.get('/admin/dashboard/cards', { config: { adminOnly: true } }, async (request) => {
    const { companyId } = requireAuth(request);
    const since = new Date(Date.now() - 24 * 3600 * 1000);
    const [[events], [mail]] = await Promise.all([
      db
        .select({
          signins: sql<number>`count(*) filter (where ${accessEvents.event} = 'signin' and ${accessEvents.status} = 'success')`.mapWith(Number),
          failures: sql<number>`count(*) filter (where ${accessEvents.status} <> 'success')`.mapWith(Number),
        })
        .from(accessEvents)
        .where(and(eq(accessEvents.companyId, companyId), gt(accessEvents.createdAt, since))),
      db.select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.companyId, companyId), gt(mailOutbox.createdAt, since))),
    ]);
    const cards: DashboardCard[] = [
      { key: 'signins24h', label: 'Sign-ins in the last 24 hours', value: events.signins },
      { key: 'securityFailures24h', label: 'Failed or blocked security events in the last 24 hours', value: events.failures },
      { key: 'mails24h', label: 'Mails sent in the last 24 hours', value: mail.n, link: '/outbox' },
    ];
    return { message: 'Admin dashboard cards', data: { cards } };
  });
}
