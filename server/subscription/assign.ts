import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { PLANS, type PlanId } from '../../common/plans';
import type { Secrets } from '../auth/secrets';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { lockCompany } from '../users/rules';
import { readPlanGrant, type PlanGrant } from './grants';
import { isInForce, saveSubscription, subscriptionRow, type SubscriptionRow } from './store';

/** Provider `self`: an operator assigns the plan, by `npm run plan` or by a grant a company admin redeems. */

/** The subscription id a redeemed grant leaves on the row: the same grant is not redeemed twice. */
const grantMark = (grant: PlanGrant) => `grant:${grant.id}`;

function paidThroughStripe(row: SubscriptionRow | null): boolean {
  return !!row && row.provider === 'stripe' && isInForce(row);
}

/**
 * POST /subscription/verify: checks the grant (signature, audience, expiry), that it names the
 * caller's company, that it is newer than the company's last plan change and not used yet, then
 * puts the company on its plan.
 */
export async function redeemGrant(
  db: Db,
  secrets: Secrets,
  request: FastifyRequest,
  companyId: string,
  token: string,
): Promise<SubscriptionRow> {
  const grant = await readPlanGrant(secrets, token);
  const [company] = await db.select({ hostname: companies.hostname }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound('Company');
  if (grant.hostname !== company.hostname) {
    throw badRequest(`token: this plan grant is for the company "${grant.hostname}", not for "${company.hostname}"`);
  }
  return db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    const row = await subscriptionRow(tx, companyId);
    if (row?.subscriptionId === grantMark(grant)) throw badRequest('token: this plan grant has already been used');
    // A grant older than the last change of plan (a downgrade since, say) must not undo it.
    if (row && row.updatedAt.getTime() >= grant.issuedAt.getTime() + 1000) {
      throw badRequest(
        `token: this plan grant was issued before the company's plan last changed (${row.updatedAt.toISOString().slice(0, 10)}); ask your operator for a new one`,
      );
    }
    if (paidThroughStripe(row)) {
      throw conflict(
        `The company pays for the ${PLANS[row!.plan as PlanId]?.name ?? row!.plan} plan through Stripe; cancel that subscription before applying a plan grant`,
      );
    }
    return saveSubscription(
      tx,
      request,
      companyId,
      { plan: grant.plan, status: 'active', provider: 'self', subscriptionId: grantMark(grant), currentPeriodEnd: null },
      { operation: 'plan_grant' },
    );
  });
}

export interface Assignment {
  company: { id: string; name: string; hostname: string };
  before: SubscriptionRow | null;
  after: SubscriptionRow;
}

/**
 * `npm run plan -- <host name> <plan>`: the operator's assignment. It replaces whatever the
 * company was on, except a subscription paid through Stripe unless `force` (Stripe would go on
 * billing it).
 */
export async function assignPlan(db: Db, hostname: string, plan: PlanId, options: { force?: boolean } = {}): Promise<Assignment> {
  const [company] = await db
    .select({ id: companies.id, name: companies.name, hostname: companies.hostname })
    .from(companies)
    .where(eq(companies.hostname, hostname));
  if (!company) throw notFound(`Company "${hostname}"`);
  return db.transaction(async (tx) => {
    await lockCompany(tx, company.id);
    const before = await subscriptionRow(tx, company.id);
    if (paidThroughStripe(before) && !options.force) {
      throw conflict(
        `${company.hostname} pays for the ${before!.plan} plan through Stripe (subscription ${before!.subscriptionId}); ` +
          'cancel it in Stripe first, or add --force to assign the plan anyway (Stripe goes on billing)',
      );
    }
    const after = await saveSubscription(
      tx,
      null,
      company.id,
      { plan, status: 'active', provider: 'self', subscriptionId: null, currentPeriodEnd: null },
      { operation: 'plan_assigned', userId: null },
    );
    return { company, before, after };
  });
}
