import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './processes';

/** The real server process: first start, the data-directory lock, clean stop and restart. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-start-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, DATABASE_URL: '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', CONSOLE_DIR: path.join(dataDir, 'no-console'), ...env },
  });
  running.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

// A first start makes three embedded databases (the console's and the two samples) in a process of
// its own: about 20 s on an idle two-core machine, and several times that while the rest of the
// suite runs beside it. These bounds only stop a hung process; they time nothing.
const STARTED_WITHIN_MS = 150_000;

async function waitForText(started: Started, text: string | RegExp, timeoutMs = STARTED_WITHIN_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const out = started.output();
    if (typeof text === 'string' ? out.includes(text) : text.test(out)) return out;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${text}; output so far:\n${started.output()}`);
}

describe('the server process', { timeout: 360_000 }, () => {
  it('bootstraps a company on first start, locks its data directory, stops cleanly and keeps its data', async () => {
    const port = await freePort();
    const first = start({
      DATA_DIR: dataDir,
      PORT: String(port),
      BOOTSTRAP_COMPANY_HOSTNAME: 'firstco',
      BOOTSTRAP_ADMIN_EMAIL: 'boss@firstco.test',
    });
    const out = await waitForText(first, 'Password:');
    expect(out).toContain(`running at http://127.0.0.1:${port}`);
    expect(out).toContain('boss@firstco.test');
    expect(out).toContain('Company host name: firstco');
    const password = out.match(/Password:\s+(\S+)/)![1];
    expect(password.length).toBeGreaterThanOrEqual(20);

    const signin = await fetch(`http://127.0.0.1:${port}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@firstco.test', password, companyHostname: 'firstco' }),
    });
    expect(signin.status).toBe(200);
    const token = (await signin.json()).user.accessToken as string;
    const api = async (path: string) =>
      (await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { 'x-access-token': token } })).json();

    // The sample source and destination, paired, with the shop's tables in the data directory.
    const made = (await api('/connections/0/10')).data.rows as Array<{
      id: string;
      name: string;
      isSource: boolean;
      isDestination: boolean;
    }>;
    expect(made.map((c) => [c.name, c.isSource, c.isDestination]).sort()).toEqual([
      ['Sample shop', true, false],
      ['Sample warehouse', false, true],
    ]);
    expect((await api('/active/source/destination')).data.map((p: { name: string }) => p.name)).toEqual(['Sample shop → Sample warehouse']);
    const shopId = made.find((c) => c.name === 'Sample shop')!.id;
    const tablesOfShop = async () =>
      ((await api(`/connection/${shopId}/endpoints`)).data as Array<{ id: string; rows?: number }>).map((e) => e.id).sort();
    expect(await tablesOfShop()).toEqual(['public.customers', 'public.order_items', 'public.orders', 'public.products']);
    // Kept in the company's own folder of the data directory, not in one shared by companies.
    const companies = fs.readdirSync(path.join(dataDir, 'companies'));
    expect(companies).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, 'companies', companies[0]!, 'embedded', 'sample-shop'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'embedded'))).toBe(false);

    // A second process on the same directory refuses to start, naming the first.
    const second = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`in use by another server process (pid ${first.child.pid})`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    // Restarted: no new company, the same admin signs in with the same password.
    const again = start({ DATA_DIR: dataDir, PORT: String(port) });
    const out2 = await waitForText(again, 'is running at');
    expect(out2).not.toContain('A first company was created');
    const signinAgain = await fetch(`http://127.0.0.1:${port}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'boss@firstco.test', password, companyHostname: 'firstco' }),
    });
    expect(signinAgain.status).toBe(200);
    const tokenAgain = (await signinAgain.json()).user.accessToken as string;
    const endpointsAgain = await fetch(`http://127.0.0.1:${port}/api/v1/connection/${shopId}/endpoints`, {
      headers: { 'x-access-token': tokenAgain },
    });
    expect(((await endpointsAgain.json()).data as Array<{ id: string }>).map((e) => e.id)).toContain('public.orders');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-stale-'));
    try {
      fs.writeFileSync(path.join(dir, 'server.lock'), '999999');
      const port = await freePort();
      const started = start({ DATA_DIR: dir, PORT: String(port), BOOTSTRAP_ADMIN_PASSWORD: 'Chosen-password-1' });
      // The banner comes in several writes: wait for its last line, not its first.
      const out = await waitForText(started, 'the value of BOOTSTRAP_ADMIN_PASSWORD');
      expect(out).toContain('is running at');
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'runs on PostgreSQL when DATABASE_URL is set, with the same migrations',
    async () => {
      const schema = `start_${Date.now().toString(36)}`;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-pg-'));
      const port = await freePort();
      const pg = await import('pg');
      try {
        const started = start({
          DATA_DIR: dir,
          PORT: String(port),
          DATABASE_URL: process.env.DATABASE_URL!,
          DATABASE_SCHEMA: schema,
          BOOTSTRAP_ADMIN_PASSWORD: 'Chosen-password-1',
        });
        const out = await waitForText(started, 'is running at');
        expect(out).toContain('(PostgreSQL;');
        const signin = await fetch(`http://127.0.0.1:${port}/api/v1/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'admin@demo.local', password: 'Chosen-password-1', companyHostname: 'demo' }),
        });
        expect(signin.status).toBe(200);
        expect(fs.existsSync(path.join(dir, 'pglite'))).toBe(false);
        started.child.kill('SIGTERM');
        expect(await started.exited).toBe(0);
      } finally {
        const client = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  /** A login role of its own on the test PostgreSQL (no superuser), dropped with what it owns afterwards. */
  async function withLoginRole(options: string, work: (url: string, schema: string) => Promise<void>) {
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `dataops_owner_${Date.now().toString(36)}`;
    const schema = `start_${name}`;
    const database = (await admin.query<{ db: string }>('select current_database() as db')).rows[0].db;
    await admin.query(`CREATE ROLE "${name}" LOGIN NOSUPERUSER ${options}`);
    await admin.query(`GRANT CREATE ON DATABASE "${database}" TO "${name}"`);
    const url = new URL(process.env.DATABASE_URL!);
    url.username = name;
    url.password = '';
    try {
      await work(url.toString(), schema);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.query(`DROP OWNED BY "${name}"`);
      await admin.query(`DROP ROLE "${name}"`);
      await admin.end();
    }
  }

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'runs on PostgreSQL as a user that owns its tables without being a superuser, its queries held by row-level security',
    async () => {
      await withLoginRole('CREATEROLE', async (databaseUrl, schema) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-owner-'));
        const port = await freePort();
        try {
          const started = start({
            DATA_DIR: dir,
            PORT: String(port),
            DATABASE_URL: databaseUrl,
            DATABASE_SCHEMA: schema,
            BOOTSTRAP_ADMIN_PASSWORD: 'Chosen-password-1',
          });
          await waitForText(started, 'is running at');
          const base = `http://127.0.0.1:${port}/api/v1`;
          const signin = await fetch(`${base}/signin`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'admin@demo.local', password: 'Chosen-password-1', companyHostname: 'demo' }),
          });
          expect(signin.status).toBe(200);
          const token = (await signin.json()).user.accessToken as string;
          const searched = await fetch(`${base}/users/filter/10/0/DESC/createdAt`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-access-token': token },
            body: JSON.stringify({ search: 'admin' }),
          });
          expect(searched.status).toBe(200);
          expect((await searched.json()).data.rows.map((row: { email: string }) => row.email)).toEqual(['admin@demo.local']);
          started.child.kill('SIGTERM');
          expect(await started.exited).toBe(0);
          // The user owns the tables; the policies are on.
          const pg = await import('pg');
          const admin = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
          await admin.connect();
          try {
            const { rows } = await admin.query<{ owner: string; rls: boolean }>(
              `select pg_get_userbyid(c.relowner) as owner, c.relrowsecurity as rls from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = 'users'`,
              [schema],
            );
            expect(rows).toEqual([{ owner: new URL(databaseUrl).username, rls: true }]);
          } finally {
            await admin.end();
          }
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    },
    120_000,
  );

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "refuses to start, saying what to do, when DATABASE_URL's user may not prepare the server's role",
    async () => {
      await withLoginRole('NOCREATEROLE', async (databaseUrl, schema) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-norole-'));
        try {
          const started = start({
            DATA_DIR: dir,
            PORT: String(await freePort()),
            DATABASE_URL: databaseUrl,
            DATABASE_SCHEMA: schema,
            BOOTSTRAP_ADMIN_PASSWORD: 'Chosen-password-1',
          });
          expect(await started.exited).toBe(1);
          expect(started.output()).toMatch(/The server could not (create|grant) the role dataops_console_app/);
          expect(started.output()).toContain('CREATEROLE');
          expect(started.output()).toContain('docs/operations.md, "The server\'s database roles"');
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    },
    120_000,
  );

  it('refuses a weak bootstrap password with a clear message', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-weak-'));
    try {
      const started = start({ DATA_DIR: dir, PORT: String(await freePort()), BOOTSTRAP_ADMIN_PASSWORD: 'weak' });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain('BOOTSTRAP_ADMIN_PASSWORD: Password must be at least 10 characters long');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
