import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmbeddedDatabases, openEmbeddedConnector } from '../../../server/connectors/embedded';
import { embeddedNamings, moveLegacyEmbeddedDatabases, type EmbeddedNaming } from '../../../server/connectors/embedded-legacy';
import { connections } from '../../../server/db/schema';
import { createTestServer } from '../harness';
import { createOtherCompany } from '../helpers';

/** Embedded databases of older versions, shared by name in DATA_DIR/embedded, moved to the company that named each first. */

const ACME = '11111111-1111-4111-8111-111111111111';
const GLOBEX = '22222222-2222-4222-8222-222222222222';
const INITECH = '33333333-3333-4333-8333-333333333333';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-legacy-'));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A legacy database directory holding one file that says whose it was. */
function legacyDatabase(name: string): void {
  fs.mkdirSync(path.join(dataDir, 'embedded', name), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'embedded', name, 'PG_VERSION'), `${name}\n`);
}

const naming = (companyId: string, company: string, database: string, createdAt: string): EmbeddedNaming => ({
  companyId,
  company,
  database,
  createdAt: new Date(createdAt),
});
const companyDatabase = (companyId: string, name: string) => path.join(dataDir, 'companies', companyId, 'embedded', name);

describe('moving legacy embedded databases', () => {
  it('gives each database to the company whose connection named it first; the others are named and get nothing of it', () => {
    legacyDatabase('sample-shop');
    legacyDatabase('sample-warehouse');
    const warnings: string[] = [];
    const moved = moveLegacyEmbeddedDatabases(
      dataDir,
      [
        // Listed out of order: the oldest connection wins, not the first row.
        naming(GLOBEX, 'globex', 'sample-shop', '2024-03-01T00:00:00Z'),
        naming(ACME, 'acme', 'sample-shop', '2024-01-01T00:00:00Z'),
        naming(INITECH, 'initech', 'sample-shop', '2024-05-01T00:00:00Z'),
        naming(ACME, 'acme', 'sample-warehouse', '2024-01-01T00:00:00Z'),
      ],
      (message) => warnings.push(message),
    );
    expect(moved).toEqual([
      { database: 'sample-shop', companyId: ACME },
      { database: 'sample-warehouse', companyId: ACME },
    ]);
    expect(fs.readFileSync(path.join(companyDatabase(ACME, 'sample-shop'), 'PG_VERSION'), 'utf8')).toBe('sample-shop\n');
    expect(fs.existsSync(companyDatabase(ACME, 'sample-warehouse'))).toBe(true);
    // Never a copy for the others.
    expect(fs.existsSync(path.join(dataDir, 'companies', GLOBEX))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'companies', INITECH))).toBe(false);
    expect(warnings).toEqual([
      'The embedded database "sample-shop" was moved to company acme, whose connection named it first. Companies globex, initech named it too and now have empty databases of that name.',
    ]);
    expect(fs.existsSync(path.join(dataDir, 'embedded'))).toBe(false);
  });

  it('leaves a database no connection names where it is, and says so', () => {
    legacyDatabase('orphan');
    const warnings: string[] = [];
    expect(
      moveLegacyEmbeddedDatabases(dataDir, [naming(ACME, 'acme', 'other', '2024-01-01T00:00:00Z')], (message) => warnings.push(message)),
    ).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'embedded', 'orphan', 'PG_VERSION'))).toBe(true);
    expect(warnings).toEqual([
      `The embedded database ${path.join(dataDir, 'embedded', 'orphan')} is named by no connection: it was left where it is, and no company reaches it.`,
    ]);
  });

  it('never overwrites a database the company already has, and does nothing without legacy databases', () => {
    legacyDatabase('sales');
    fs.mkdirSync(companyDatabase(ACME, 'sales'), { recursive: true });
    fs.writeFileSync(path.join(companyDatabase(ACME, 'sales'), 'PG_VERSION'), 'own\n');
    const warnings: string[] = [];
    expect(
      moveLegacyEmbeddedDatabases(dataDir, [naming(ACME, 'acme', 'sales', '2024-01-01T00:00:00Z')], (message) => warnings.push(message)),
    ).toEqual([]);
    expect(fs.readFileSync(path.join(companyDatabase(ACME, 'sales'), 'PG_VERSION'), 'utf8')).toBe('own\n');
    expect(fs.existsSync(path.join(dataDir, 'embedded', 'sales', 'PG_VERSION'))).toBe(true);
    expect(warnings[0]).toMatch(/^The embedded database .*sales was not moved: company acme already has a database at /);
    fs.rmSync(path.join(dataDir, 'embedded'), { recursive: true });
    expect(moveLegacyEmbeddedDatabases(dataDir, [], () => {})).toEqual([]);
  });

  it('reads who names what from the connections of every company, oldest first', async () => {
    const server = await createTestServer();
    try {
      const other = await createOtherCompany(server);
      const insert = (companyId: string, name: string, database: string, createdAt: string) =>
        server.db
          .insert(connections)
          .values({ companyId, name, type: 'embedded', isSource: true, settings: { database }, createdAt: new Date(createdAt) });
      await insert(other.companyId, 'Their shop', 'sample-shop', '2024-03-01T00:00:00Z');
      await insert(server.company.companyId, 'Our shop', ' sample-shop ', '2024-01-01T00:00:00Z');
      await server.db.insert(connections).values({ companyId: other.companyId, name: 'A folder', type: 'files', settings: { path: 'x' } });
      expect(await embeddedNamings(server.database.db)).toEqual([
        { companyId: server.company.companyId, company: 'acme', database: 'sample-shop', createdAt: new Date('2024-01-01T00:00:00Z') },
        { companyId: other.companyId, company: 'globex', database: 'sample-shop', createdAt: new Date('2024-03-01T00:00:00Z') },
      ]);
    } finally {
      await server.close();
    }
  });

  it('moves a real database with its data, which the company then opens by name', async () => {
    const old = openEmbeddedConnector({ companyId: ACME, type: 'embedded', settings: { database: 'kept' }, secrets: {} }, { dataDir });
    await old.query('create table notes (body text)', [], { timeoutMs: 10_000 });
    await old.query("insert into notes values ('from before')", [], { timeoutMs: 10_000 });
    await closeEmbeddedDatabases();
    // Where an older version kept it.
    fs.mkdirSync(path.join(dataDir, 'embedded'));
    fs.renameSync(companyDatabase(ACME, 'kept'), path.join(dataDir, 'embedded', 'kept'));
    moveLegacyEmbeddedDatabases(dataDir, [naming(ACME, 'acme', 'kept', '2024-01-01T00:00:00Z')], () => {});
    const reopened = openEmbeddedConnector({ companyId: ACME, type: 'embedded', settings: { database: 'kept' }, secrets: {} }, { dataDir });
    try {
      expect(await reopened.query('select body from notes', [], { timeoutMs: 10_000 })).toEqual([{ body: 'from before' }]);
    } finally {
      await closeEmbeddedDatabases();
    }
  }, 60_000);
});
