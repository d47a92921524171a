import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecrets, loadInstanceSecret } from '../../server/auth/secrets';
import { migrateDatabase, openDatabase } from '../../server/db/client';
import { acquireDataDirLock } from '../../server/db/lock';
import { subscriptions, systemAudits } from '../../server/db/schema';
import { readPlanGrant } from '../../server/subscription/grants';
import { provisionCompany } from '../../server/tenancy/provision';
import { runScript, type Outcome } from './processes';

/*
 * `npm run plan` as an operator runs it: a separate process on the server's data directory (the
 * embedded database), which it refuses to open while a server holds it.
 */

let dataDir: string;
let companyId: string;

function plan(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  // The operator's environment: the server's data directory, no PostgreSQL.
  return runScript('plan', args, { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), DATA_DIR: dataDir, DATABASE_URL: '', ...env });
}

/** Opens the data directory as the server does (taking its lock), runs `work`, and closes it. */
async function withServerDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir, lock: true });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-plan-cli-'));
  loadInstanceSecret(dataDir, undefined);
  const database = await openDatabase({ dataDir, lock: true });
  await migrateDatabase(database);
  ({ companyId } = await provisionCompany(database.db, {
    name: 'Acme',
    hostname: 'acme',
    admin: { email: 'admin@acme.test', password: 'Correct-horse-42', firstName: 'Ada', lastName: 'Admin' },
  }));
  await database.close();
}, 60_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run plan', { timeout: 60_000 }, () => {
  it('shows what a company is on, then puts it on a plan, audited', async () => {
    const shown = await plan(['acme']);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout.trim()).toBe(
      "acme (Acme) is on the Unlimited plan: this server's default plan (DEFAULT_PLAN); unlimited users, unlimited workflows, unlimited runs.",
    );

    const assigned = await plan(['ACME', 'team']);
    expect(assigned.stderr).toBe('');
    expect(assigned.code).toBe(0);
    expect(assigned.stdout.trim()).toBe(
      'acme (Acme) is now on the Team plan (25 users, 50 workflows, 5,000 runs a month); it was on no plan of its own (the default, Unlimited).',
    );
    const again = await plan(['acme', 'team']);
    expect(again.stdout.trim()).toBe('acme (Acme) is already on the Team plan; nothing changed.');

    await withServerDatabase(async (db) => {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.companyId, companyId));
      expect(row).toMatchObject({ plan: 'team', provider: 'self', status: 'active', updatedBy: null });
      const audits = await db.select().from(systemAudits).where(eq(systemAudits.model, 'subscription'));
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        operation: 'plan_assigned',
        userId: null,
        changes: { before: null, after: { plan: 'team', provider: 'self' } },
      });
    });
  });

  it('refuses to open the embedded database while a server holds it, and says what to do instead', async () => {
    // A running server's lock: this test process holds it, as the server process would.
    const release = acquireDataDirLock(dataDir);
    try {
      const refused = await plan(['acme', 'business']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`A running server holds the embedded database in ${dataDir}, and only one process may open it`);
      expect(refused.stderr).toContain(`(pid ${process.pid})`);
      expect(refused.stderr).toContain('npm run plan -- acme business --grant');
    } finally {
      release();
    }
    await withServerDatabase(async (db) => {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.companyId, companyId));
      expect(row.plan).toBe('team');
    });
  });

  it('prints a grant signed with the instance secret, without opening the database (so while a server runs)', async () => {
    const release = acquireDataDirLock(dataDir);
    let granted: Outcome;
    try {
      granted = await plan(['acme', 'business', '--grant', '--days', '3']);
    } finally {
      release();
    }
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    const lines = granted.stdout.trim().split('\n');
    expect(lines[0]).toBe('A grant of the Business plan (500 users, unlimited workflows, 100,000 runs a month) for the company "acme".');
    expect(lines[1]).toMatch(
      /^Its admin pastes it on the Subscription page \("Paste a plan grant"\) before \d{4}-\d\d-\d\d \d\d:\d\d UTC:$/,
    );
    const token = lines.at(-1)!;
    const grant = await readPlanGrant(createSecrets(loadInstanceSecret(dataDir, undefined)), token);
    expect(grant).toMatchObject({ hostname: 'acme', plan: 'business' });
    expect(grant.expiresAt.getTime() - grant.issuedAt.getTime()).toBe(3 * 86_400_000);
  });

  it('names what is wrong with its arguments or its environment', async () => {
    const cases: Array<[string[], Record<string, string>, number, string | RegExp]> = [
      [[], {}, 2, /^Usage:/],
      [['acme', 'gold'], {}, 2, '"gold" is not a plan; the plans are free, team, business, unlimited'],
      [['not a host!', 'team'], {}, 2, /^"not a host!": Company host name may use/],
      [['acme', '--grant'], {}, 2, /^--grant needs a plan/],
      [['acme', 'team', '--grant', '--days', '0'], {}, 2, '--days must be a whole number of days from 1 to 366'],
      [['globex', 'team'], {}, 1, 'No company has the host name "globex" in this database.'],
      [['acme', 'team'], { DATA_DIR: path.join(dataDir, 'elsewhere') }, 1, /^There is no embedded database in .*elsewhere/],
      [['acme', 'team', '--grant'], { DATA_DIR: path.join(dataDir, 'elsewhere') }, 1, /^No instance secret: set APP_SECRET/],
      [['acme', 'team'], { DEFAULT_PLAN: 'gold' }, 1, 'DEFAULT_PLAN must be one of free, team, business, unlimited, got "gold"'],
    ];
    for (const [args, env, code, message] of cases) {
      const outcome = await plan(args, env);
      expect(outcome.code, args.join(' ')).toBe(code);
      if (typeof message === 'string') expect(outcome.stderr.trim(), args.join(' ')).toBe(message);
      else expect(outcome.stderr.trim(), args.join(' ')).toMatch(message);
    }
    expect(fs.existsSync(path.join(dataDir, 'elsewhere', 'instance.secret'))).toBe(false);
  });
});
