import { count, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { connections, dataTables, qualityRules, users, workflows } from '../db/schema';
import { GETTING_STARTED_STEPS, type GettingStartedStep } from '../../common/contract/answers/company';

/**
 * Which getting-started steps a company has taken, read from its data: a connection to a source,
 * a registered table, a quality rule, a workflow, and a second user (a colleague invited).
 */
export async function gettingStarted(db: Db, companyId: string): Promise<{ key: GettingStartedStep; done: boolean }[]> {
  const [[sources], [tables], [rules], [flows], [people]] = await Promise.all([
    db.select({ n: count() }).from(connections).where(eq(connections.companyId, companyId)),
    db.select({ n: count() }).from(dataTables).where(eq(dataTables.companyId, companyId)),
    db.select({ n: count() }).from(qualityRules).where(eq(qualityRules.companyId, companyId)),
    db.select({ n: count() }).from(workflows).where(eq(workflows.companyId, companyId)),
    db.select({ n: count() }).from(users).where(eq(users.companyId, companyId)),
  ]);
  const done: Record<GettingStartedStep, boolean> = {
    connection: sources.n > 0,
    table: tables.n > 0,
    rules: rules.n > 0,
    workflow: flows.n > 0,
    colleague: people.n > 1,
  };
  return GETTING_STARTED_STEPS.map((key) => ({ key, done: done[key] }));
}
