import { and, eq, gte } from 'drizzle-orm';
import { describeLimit, type LimitKey, type Plan } from '../../common/plans';
import type { Db } from '../db/client';
import { notifications } from '../db/schema';
import { HttpError } from '../http/errors';
import { notify } from '../notify';
import { lockCompany } from '../users/rules';
import type { PlanSettings } from './config';
import { monthWindow, subscriptionState, usageOf } from './store';

/** The status of a refusal for a plan's limit: the request is fine, the plan does not cover it. */
export const PLAN_LIMIT_STATUS = 402;
/** Where the console lets an admin change the plan; named in every refusal. */
export const SUBSCRIPTION_PAGE = '/subscription';
/** The in-app notification that scheduled runs are being skipped (one a month per company). */
export const SCHEDULE_SKIPPED_NOTICE = 'plan_runs_exhausted';

const WHAT_TO_REMOVE: Record<Exclude<LimitKey, 'runsPerMonth'>, string> = {
  users: 'Delete a user',
  workflows: 'Delete a workflow',
};

const monthName = (at: Date) => at.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = (at: Date) => at.toLocaleString('en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * One more user, workflow or run than the company's plan allows: 402 with a message a person can
 * act on, and the figures beside it (`limit`, `plan`, `allowed`, `used`).
 */
export class PlanLimitError extends HttpError {
  constructor(
    readonly limit: LimitKey,
    readonly plan: Plan,
    readonly allowed: number,
    readonly used: number,
    /** For runs: when the count starts again. */
    readonly resetsAt: Date | null,
  ) {
    super(PLAN_LIMIT_STATUS, PlanLimitError.describe(limit, plan, allowed, used, resetsAt), { limit, plan: plan.id, allowed, used });
    this.name = 'PlanLimitError';
  }

  static describe(limit: LimitKey, plan: Plan, allowed: number, used: number, resetsAt: Date | null): string {
    const allows = `Your plan (${plan.name}) allows ${describeLimit(limit, allowed)}`;
    if (limit === 'runsPerMonth') {
      const ends = resetsAt ?? monthWindow().end;
      const month = monthName(new Date(ends.getTime() - 1));
      return (
        `${allows} and the company has queued ${used.toLocaleString('en-US')} in ${month}. ` +
        `Runs can start again on ${dayName(ends)} (UTC), or upgrade on the Subscription page.`
      );
    }
    return `${allows} and the company has ${used.toLocaleString('en-US')}. ${WHAT_TO_REMOVE[limit]} or upgrade on the Subscription page.`;
  }
}

/**
 * Refuses one more user, workflow or run when the company's plan has no room for it. Call it
 * inside the transaction that adds the row: on a plan with that limit it locks the company's row
 * first, so two additions at once cannot both take the last place. A plan without that limit
 * costs one primary-key read.
 */
export async function assertWithinPlan(
  db: Db,
  settings: Pick<PlanSettings, 'defaultPlan'>,
  companyId: string,
  limit: LimitKey,
): Promise<void> {
  const { plan } = await subscriptionState(db, settings, companyId);
  const allowed = plan.limits[limit];
  if (allowed === null) return;
  await lockCompany(db, companyId);
  const now = new Date();
  const used = await usageOf(db, companyId, limit, now);
  if (used >= allowed) throw new PlanLimitError(limit, plan, allowed, used, limit === 'runsPerMonth' ? monthWindow(now).end : null);
}

/**
 * A schedule fired but the plan has no runs left this month: the run is skipped (no run row, so
 * the tracker and the failure notices stay clean) and the company's admins are told once a month,
 * with a link to the Subscription page. Anything else than a plan refusal is thrown on.
 */
export async function reportSkippedScheduledRun(db: Db, error: unknown, workflow: { companyId: string; name: string }): Promise<void> {
  if (!(error instanceof PlanLimitError)) throw error;
  const { start } = monthWindow();
  await db.transaction(async (tx) => {
    await lockCompany(tx, workflow.companyId);
    const [told] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.companyId, workflow.companyId),
          gte(notifications.createdAt, start),
          eq(notifications.type, SCHEDULE_SKIPPED_NOTICE),
        ),
      )
      .limit(1);
    if (told) return;
    await notify(tx, {
      companyId: workflow.companyId,
      to: 'admins',
      type: SCHEDULE_SKIPPED_NOTICE,
      title: error.resetsAt ? `Scheduled runs are skipped until ${dayName(error.resetsAt)}` : 'Scheduled runs are skipped',
      message: `The schedule of workflow "${workflow.name}" did not start a run, nor will other schedules this month. ${error.message}`,
      link: SUBSCRIPTION_PAGE,
    });
  });
}
