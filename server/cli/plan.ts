import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { hostnameProblem, normaliseHostname } from '../../common/hostname';
import { describeLimit, isPlanId, LIMIT_KEYS, PLAN_IDS, PLANS, type Plan, type PlanId } from '../../common/plans';
import { createSecrets, loadInstanceSecret } from '../auth/secrets';
import { readConfig, type Config } from '../config';
import { openDatabase, selectRows, type Database } from '../db/client';
import { asSystem } from '../db/tenant-scope';
import { acquireDataDirLock } from '../db/lock';
import { companies } from '../db/schema';
import { HttpError } from '../http/errors';
import { assignPlan } from '../subscription/assign';
import { DEFAULT_GRANT_DAYS, MAX_GRANT_DAYS, signPlanGrant } from '../subscription/grants';
import { stateOf, subscriptionRow } from '../subscription/store';

/**
 * `npm run plan`: the operator's tool for plans of provider `self` (docs/api/subscription.md).
 *
 *   npm run plan -- <host name>                     what the company is on
 *   npm run plan -- <host name> <plan> [--force]     put it on a plan (opens the database)
 *   npm run plan -- <host name> <plan> --grant [--days N]
 *                                                    print a signed grant its admin pastes in the console
 *
 * It reads the server's environment (DATABASE_URL, DATABASE_SCHEMA, DATA_DIR, APP_SECRET). The
 * embedded database can be opened by one process only: while a server runs on it, assigning is
 * refused and a grant is the way (a grant needs the instance secret only, not the database).
 */

const USAGE = `Usage:
  npm run plan -- <company host name>                      show the company's plan and usage
  npm run plan -- <company host name> <plan> [--force]     put the company on a plan
  npm run plan -- <company host name> <plan> --grant [--days N]
                                                           print a plan grant the company's admin pastes
                                                           on the Subscription page (valid ${DEFAULT_GRANT_DAYS} days unless --days)
Plans: ${PLAN_IDS.join(', ')}. It uses the server's DATABASE_URL, DATABASE_SCHEMA, DATA_DIR and APP_SECRET.`;

/** A failure the operator can act on: printed alone, without a stack. */
class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function limitsLine(plan: Plan): string {
  return LIMIT_KEYS.map((key) => {
    const value = plan.limits[key];
    return value === null ? `unlimited ${key === 'runsPerMonth' ? 'runs' : key}` : describeLimit(key, value);
  }).join(', ');
}

/** The servers' secret, never a new one: a grant signed with a secret of its own would be refused by every server. */
function instanceSecret(config: Config): string {
  if (config.appSecret || fs.existsSync(path.join(config.dataDir, 'instance.secret')))
    return loadInstanceSecret(config.dataDir, config.appSecret);
  throw new CommandError(
    `No instance secret: set APP_SECRET to the servers' value, or DATA_DIR to the server's data directory (it holds instance.secret; looked in ${config.dataDir}).`,
  );
}

/** Opens the server's database; the embedded one only when no server holds it. */
async function openServerDatabase(config: Config, retryHint: string): Promise<{ database: Database; release: () => void }> {
  if (config.databaseUrl) {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      schema: config.databaseSchema,
      prepare: config.databasePrepare,
    });
    return { database, release: () => {} };
  }
  if (!fs.existsSync(path.join(config.dataDir, 'pglite'))) {
    throw new CommandError(
      `There is no embedded database in ${config.dataDir}: set DATA_DIR to the server's data directory (or DATABASE_URL for PostgreSQL).`,
    );
  }
  let release: () => void;
  try {
    release = acquireDataDirLock(config.dataDir);
  } catch (error) {
    throw new CommandError(
      `A running server holds the embedded database in ${config.dataDir}, and only one process may open it (${(error as Error).message})\n` +
        `Stop the server and run this again, or leave it running and issue a grant for the company's admin to paste:\n  ${retryHint}`,
    );
  }
  try {
    const database = await openDatabase({ dataDir: config.dataDir, lock: false });
    return { database, release };
  } catch (error) {
    release();
    throw error;
  }
}

async function assertMigrated(database: Database): Promise<void> {
  const [row] = await selectRows<{ present: string | null }>(database.db, sql`select to_regclass('subscriptions')::text as present`);
  if (!row?.present)
    throw new CommandError(
      'This database has no subscriptions table yet: start the server of this version once (npm start) to migrate it.',
    );
}

async function withDatabase<T>(config: Config, retryHint: string, work: (database: Database) => Promise<T>): Promise<T> {
  const { database, release } = await openServerDatabase(config, retryHint);
  try {
    await assertMigrated(database);
    // The operator's command names a company by its host name, like signing in.
    return await asSystem("the operator's plan command finds the company by its host name", () => work(database));
  } finally {
    await database.close().catch(() => {});
    release();
  }
}

export async function runPlanCommand(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { grant: { type: 'boolean' }, days: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new CommandError(`${(error as Error).message}\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print(USAGE);
    return;
  }
  if (positionals.length < 1 || positionals.length > 2) throw new CommandError(USAGE, 2);
  const hostname = normaliseHostname(positionals[0]);
  const hostProblem = hostnameProblem(hostname);
  if (hostProblem) throw new CommandError(`"${positionals[0]}": ${hostProblem}`, 2);
  const planArg = positionals[1]?.trim().toLowerCase();
  if (planArg !== undefined && !isPlanId(planArg))
    throw new CommandError(`"${positionals[1]}" is not a plan; the plans are ${PLAN_IDS.join(', ')}`, 2);
  const plan = planArg as PlanId | undefined;
  if ((values.grant || values.days !== undefined) && !plan) throw new CommandError(`--grant needs a plan.\n${USAGE}`, 2);
  if (values.days !== undefined && !values.grant) throw new CommandError('--days goes with --grant', 2);
  if (values.force && values.grant) throw new CommandError('--force goes with an assignment, not with --grant', 2);

  let config: Config;
  try {
    config = readConfig(env);
  } catch (error) {
    throw new CommandError((error as Error).message);
  }

  if (values.grant && plan) {
    const days = values.days === undefined ? DEFAULT_GRANT_DAYS : Number(values.days);
    if (!Number.isInteger(days) || days < 1 || days > MAX_GRANT_DAYS)
      throw new CommandError(`--days must be a whole number of days from 1 to ${MAX_GRANT_DAYS}`, 2);
    const secrets = createSecrets(instanceSecret(config));
    const { token, grant } = await signPlanGrant(secrets, { hostname, plan, validDays: days });
    print(`A grant of the ${PLANS[plan].name} plan (${limitsLine(PLANS[plan])}) for the company "${hostname}".`);
    print(
      `Its admin pastes it on the Subscription page ("Paste a plan grant") before ${grant.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC:`,
    );
    print('');
    print(token);
    return;
  }

  const grantHint = `npm run plan -- ${hostname} ${plan ?? '<plan>'} --grant`;
  await withDatabase(config, grantHint, async (database) => {
    if (!plan) {
      const [company] = await database.db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.hostname, hostname));
      if (!company) throw new CommandError(`No company has the host name "${hostname}" in this database.`);
      const row = await subscriptionRow(database.db, company.id);
      const state = stateOf(row, config.plans);
      const how = state.isDefault ? "this server's default plan (DEFAULT_PLAN)" : `provider ${row!.provider}, ${row!.status}`;
      print(`${hostname} (${company.name}) is on the ${state.plan.name} plan: ${how}; ${limitsLine(state.plan)}.`);
      return;
    }
    try {
      const { company, before, after } = await assignPlan(database.db, hostname, plan, { force: values.force });
      const was = before
        ? `${PLANS[before.plan as PlanId]?.name ?? before.plan} (${before.provider}, ${before.status})`
        : `no plan of its own (the default, ${PLANS[config.plans.defaultPlan].name})`;
      const unchanged = before && before.updatedAt.getTime() === after.updatedAt.getTime();
      print(
        unchanged
          ? `${company.hostname} (${company.name}) is already on the ${PLANS[plan].name} plan; nothing changed.`
          : `${company.hostname} (${company.name}) is now on the ${PLANS[plan].name} plan (${limitsLine(PLANS[plan])}); it was on ${was}.`,
      );
    } catch (error) {
      if (error instanceof HttpError)
        throw new CommandError(error.statusCode === 404 ? `No company has the host name "${hostname}" in this database.` : error.message);
      throw error;
    }
  });
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  runPlanCommand(process.argv.slice(2), process.env, (line) => console.log(line))
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      if (error instanceof CommandError) {
        console.error(error.message);
        process.exit(error.exitCode);
      }
      console.error(`npm run plan failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
