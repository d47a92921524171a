import crypto from 'node:crypto';
import fs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryFile } from '../../../server/jobs/tasks/repository';
import { configFromUrl, MYSQL_URL, POSTGRES_URL, skipMysql, skipPostgres } from '../connectors/db-helpers';
import { readEmbedded as readEmbeddedOf } from '../embedded-source';
import { createTestServer, type TestServer } from '../harness';
import { signInAdmin } from '../helpers';
import { createConnection, createPair, createWorkflow, failureOf, recordingContext, runTask } from './tasks-helpers';

/**
 * The SQL task, from a git repository made here (two commits on main): the file read at the
 * commit asked for, the commit kept on the run, each statement run and counted on the pair's
 * destination or source (embedded databases), and the ways it fails.
 */

const FIRST_BUILD = `-- Daily totals, first version
create table public.totals (day date primary key, amount numeric);
insert into public.totals values ('2024-01-01', 10), ('2024-01-02', 20); -- two days; a ; in a comment ends nothing
update public.totals set amount = amount * 2 where day = '2024-01-02';
`;

const SECOND_BUILD = `create table public.totals_v2 (day date primary key, amount numeric, note text);
insert into public.totals_v2 values ('2024-01-01', 1, 'a;b'), ('2024-01-02', 2, $$it's;$$), ('2024-01-03', 3, null);
`;

const BROKEN = `create table public.before_failure (id int);
select * from public.nowhere;
create table public.never_made (id int);
`;

let server: TestServer;
let grantedRoot: string;
let repositoryDir: string;
let warehouse: string;
let staging: string;
let workflow: Awaited<ReturnType<typeof createWorkflow>>;
let token: string;
let stagingId: string;
let repositoryId: string;
const commits = { first: '', second: '' };

async function commitFiles(files: Record<string, string>, message: string, minute: number): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repositoryDir, file)), { recursive: true });
    await writeFile(path.join(repositoryDir, file), text);
    await git.add({ fs, dir: repositoryDir, filepath: file });
  }
  return git.commit({
    fs,
    dir: repositoryDir,
    message,
    author: { name: 'Ana', email: 'ana@example.com', timestamp: 1_718_000_000 + minute * 60, timezoneOffset: 0 },
  });
}

const readEmbedded = (database: string, sql: string) => readEmbeddedOf(server, database, sql);

const sqlTask = (fields: Record<string, unknown>) => ({
  id: `sql-${crypto.randomBytes(3).toString('hex')}`,
  name: 'Build totals',
  type: 'sql' as const,
  ...fields,
});

beforeAll(async () => {
  // The repository sits in the company's own sub-folder of a folder the operator grants (FILES_ROOTS).
  grantedRoot = await mkdtemp(path.join(tmpdir(), 'tasks-sql-'));
  server = await createTestServer({ filesRoots: [grantedRoot] });
  repositoryDir = path.join(grantedRoot, server.company.companyId, 'repository');
  await mkdir(repositoryDir, { recursive: true });
  await git.init({ fs, dir: repositoryDir, defaultBranch: 'main' });
  commits.first = await commitFiles({ 'sql/build.sql': FIRST_BUILD }, 'First totals', 1);
  commits.second = await commitFiles(
    {
      'sql/build.sql': SECOND_BUILD,
      'sql/broken.sql': BROKEN,
      'sql/slow-postgres.sql': 'select pg_sleep(60);\nselect 2;\n',
      'sql/slow-mysql.sql': 'select sleep(60);\nselect 2;\n',
    },
    'Totals with notes',
    2,
  );

  token = (await signInAdmin(server)).accessToken!;
  warehouse = `warehouse-${crypto.randomBytes(4).toString('hex')}`;
  staging = `staging-${crypto.randomBytes(4).toString('hex')}`;
  stagingId = await createConnection(server, token, { name: 'Staging', type: 'embedded', settings: { database: staging } });
  const destinationId = await createConnection(server, token, { name: 'Warehouse', type: 'embedded', settings: { database: warehouse } });
  repositoryId = await createConnection(server, token, {
    name: 'SQL repository',
    type: 'git',
    settings: { url: repositoryDir },
    isSource: false,
    isDestination: false,
  });
  workflow = await createWorkflow(server, {
    name: 'Build the warehouse',
    pairId: await createPair(server, token, stagingId, destinationId),
    repositoryConnectionId: repositoryId,
  });
});

afterAll(async () => {
  await server?.close();
  if (grantedRoot) await rm(grantedRoot, { recursive: true, force: true });
});

describe('the SQL task', () => {
  it('runs the file as it was at the commit asked for, keeps that commit on the run and counts each statement', async () => {
    const context = recordingContext(server, workflow);
    await runTask(server, sqlTask({ path: 'sql/build.sql', ref: commits.first }), context);

    expect(context.commits).toEqual([commits.first]);
    expect(await readEmbedded(warehouse, 'select day::text, amount::text from public.totals order by day')).toEqual([
      { day: '2024-01-01', amount: '10' },
      { day: '2024-01-02', amount: '40' },
    ]);
    expect(await readEmbedded(warehouse, "select to_regclass('public.totals_v2') as found")).toEqual([{ found: null }]);
    expect(context.lines).toEqual([
      `Read sql/build.sql at ${commits.first}`,
      'Running 3 statements on the destination "Warehouse"',
      'Statement 1 (line 2) CREATE',
      'Statement 2 (line 3) INSERT: 2 rows',
      'Statement 3 (line 4) UPDATE: 1 row',
    ]);
  });

  it('reads the default branch when no ref is given, and runs on the source when asked', async () => {
    const context = recordingContext(server, workflow);
    await runTask(server, sqlTask({ path: 'sql/build.sql', target: 'source' }), context);

    expect(context.commits).toEqual([commits.second]);
    expect(context.lines[0]).toBe(`Read sql/build.sql at main (${commits.second})`);
    expect(await readEmbedded(staging, 'select day::text, note from public.totals_v2 order by day')).toEqual([
      { day: '2024-01-01', note: 'a;b' },
      { day: '2024-01-02', note: "it's;" },
      { day: '2024-01-03', note: null },
    ]);
    expect(await readEmbedded(warehouse, "select to_regclass('public.totals_v2') as found")).toEqual([{ found: null }]);
  });

  it('fails clearly when the file is not in the repository at that ref', async () => {
    const context = recordingContext(server, workflow);
    const message = await failureOf(runTask(server, sqlTask({ path: 'sql/missing.sql', ref: 'main' }), context));
    expect(message).toBe(
      `sql/missing.sql does not exist at main (commit ${commits.second.slice(0, 7)}) of the repository "SQL repository"`,
    );
  });

  it('fails clearly when the ref is neither a branch, a tag nor a commit', async () => {
    const message = await failureOf(
      runTask(server, sqlTask({ path: 'sql/build.sql', ref: 'release-9' }), recordingContext(server, workflow)),
    );
    expect(message).toBe(`"release-9" is not a branch, tag or commit of ${repositoryDir}`);
  });

  it('stops at the first failing statement with the database’s message and where it is in the file', async () => {
    const context = recordingContext(server, workflow);
    const message = await failureOf(runTask(server, sqlTask({ path: 'sql/broken.sql' }), context));
    expect(message).toBe('Statement 2 of 3 (line 2 of sql/broken.sql) failed: relation "public.nowhere" does not exist');
    expect(
      await readEmbedded(
        warehouse,
        "select to_regclass('public.before_failure') is not null as made, to_regclass('public.never_made') is not null as skipped",
      ),
    ).toEqual([{ made: true, skipped: false }]);
  });
});

describe.each([
  ['PostgreSQL', 'postgresql' as const, POSTGRES_URL, skipPostgres],
  ['MariaDB', 'mysql' as const, MYSQL_URL, skipMysql],
])('canceling on %s', (label, type, url, skip) => {
  it.skipIf(skip)('stops the statement under way and the statements after it', async () => {
    const config = configFromUrl(type, url);
    const serverId = await createConnection(server, token, {
      name: `${label} warehouse`,
      type,
      settings: { ...config.settings, ...config.secrets },
    });
    const slow = await createWorkflow(server, {
      name: `Slow on ${label}`,
      pairId: await createPair(server, token, stagingId, serverId),
      repositoryConnectionId: repositoryId,
    });
    const context = recordingContext(server, slow);
    setTimeout(() => context.controller.abort(new Error('The run was canceled')), 500);
    // The first statement sleeps a minute, twice the test's time limit: the task ends only if the cancel stops it.
    const message = await failureOf(runTask(server, sqlTask({ path: `sql/slow-${type === 'mysql' ? 'mysql' : 'postgres'}.sql` }), context));
    expect(message).toBe('The SQL task was canceled after 0 of 2 statements');
    expect(context.lines.some((line) => line.startsWith('Statement'))).toBe(false);
  });
});

describe('a Bitbucket repository', () => {
  it('is read over https from the workspace, the path’s first segment naming the repository', () => {
    const bitbucket = {
      companyId: 'c1',
      type: 'bitbucket' as const,
      settings: { workspace: 'acme data', email: 'ci-bot@acme.test' },
      secrets: { apiToken: 'api-token' },
    };
    expect(repositoryFile(bitbucket, 'analytics/models/daily.sql')).toEqual({
      repository: {
        companyId: 'c1',
        type: 'git',
        // git's fixed user name for API tokens (Atlassian's "Using API tokens"), not the account's email.
        settings: { url: 'https://bitbucket.org/acme%20data/analytics.git', username: 'x-bitbucket-api-token-auth' },
        secrets: { password: 'api-token' },
      },
      filePath: 'models/daily.sql',
    });
    expect(() => repositoryFile(bitbucket, 'daily.sql')).toThrow(
      '"daily.sql": with a Bitbucket connection a path starts with the repository\'s name, as in analytics/models/daily.sql',
    );
  });
});
