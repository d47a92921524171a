import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConnectionPlaces, companyGitCache, companyRoot } from '../../../server/connectors/company-places';
import type { ConnectorContext } from '../../../server/connectors/registry';
import { ConnectorError, type ConnectionConfig } from '../../../server/connectors/types';
import { TEST_COMPANY_ID, testConnectorContext } from './test-context';

/** What saving a connection asks before anything is stored: may this company use that local path? */

const OTHER_COMPANY_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

let base: string;
let granted: string;
let context: ConnectorContext;

const connection = (type: ConnectionConfig['type'], settings: Record<string, unknown>, companyId = TEST_COMPANY_ID): ConnectionConfig => ({
  companyId,
  type,
  settings,
  secrets: {},
});

async function refusal(config: ConnectionConfig): Promise<ConnectorError> {
  const error = await checkConnectionPlaces(context, config).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'company-places-'));
  granted = path.join(base, 'granted');
  await mkdir(path.join(granted, TEST_COMPANY_ID, 'exports'), { recursive: true });
  await mkdir(path.join(base, 'outside'), { recursive: true });
  context = testConnectorContext({ dataDir: path.join(base, 'data'), filesRoots: [granted] });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('checking a connection before it is saved', () => {
  it('refuses a files folder or a git path the company may not use, saying what it may use instead', async () => {
    const instead = `Give a folder relative to this company's data folder, or one under ${path.join(granted, TEST_COMPANY_ID)}/ (FILES_ROOTS)`;
    const root = await refusal(connection('files', { path: '/' }));
    expect(root.kind).toBe('refused');
    expect(root.message).toBe(`settings.path: this server does not let companies read /. ${instead}`);
    const repository = await refusal(connection('git', { url: 'file:///etc' }));
    expect(repository.kind).toBe('refused');
    expect(repository.message).toBe(
      `settings.url: this server does not let companies read /etc. Give a path relative to this company's data folder, or one under ${path.join(granted, TEST_COMPANY_ID)}/ (FILES_ROOTS)`,
    );
    const cache = path.join(companyGitCache(context.dataDir!, OTHER_COMPANY_ID), 'abc.git');
    expect((await refusal(connection('git', { url: cache }))).kind).toBe('refused');
  });

  it('refuses a folder that exists and leads out through a link', async () => {
    const link = path.join(granted, TEST_COMPANY_ID, 'link');
    await symlink(path.join(base, 'outside'), link);
    const error = await refusal(connection('files', { path: link }));
    expect(error.kind).toBe('refused');
    expect(error.message).toMatch(/leads through a symbolic link out of the folders this company may read/);
  });

  it("answers another company's sub-folder as a missing one", async () => {
    const error = await refusal(connection('files', { path: path.join(granted, OTHER_COMPANY_ID, 'exports') }));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`settings.path: the folder ${path.join(granted, OTHER_COMPANY_ID, 'exports')} does not exist`);
  });

  it('lets through what the company may use, made yet or not, and every other type', async () => {
    await checkConnectionPlaces(context, connection('files', { path: path.join(granted, TEST_COMPANY_ID, 'exports') }));
    await checkConnectionPlaces(context, connection('files', { path: path.join(granted, TEST_COMPANY_ID, 'made-later') }));
    await checkConnectionPlaces(context, connection('files', { path: 'daily' }));
    await checkConnectionPlaces(context, connection('git', { url: 'https://git.example.com/team/sql.git' }));
    await checkConnectionPlaces(context, connection('git', { url: 'team/sql.git' }));
    await checkConnectionPlaces(context, connection('postgresql', { host: '/', port: 5432, database: 'x', user: 'y' }));
  });
});

describe("a company's root", () => {
  it('is named by the company id, and refuses an id that could climb out of it', () => {
    expect(companyRoot('/srv/data', TEST_COMPANY_ID)).toBe(`/srv/data/companies/${TEST_COMPANY_ID}`);
    expect(companyGitCache('/srv/data', TEST_COMPANY_ID)).toBe(`/srv/data/companies/${TEST_COMPANY_ID}/git-cache`);
    expect(() => companyRoot('/srv/data', '../x')).toThrow(ConnectorError);
    expect(() => companyRoot('/srv/data', '')).toThrow(ConnectorError);
  });
});

describe('a folder whose name starts with two dots', () => {
  it('is a folder like any other, not a climb', async () => {
    await checkConnectionPlaces(context, connection('files', { path: path.join(granted, TEST_COMPANY_ID, '..exports') }));
    await checkConnectionPlaces(context, connection('files', { path: '..daily' }));
  });
});
