import crypto from 'node:crypto';
import { expect } from 'vitest';
import { isTableSource } from '../../../server/connectors/types';
import type { TestServer } from '../harness';
import { call, inviteUser } from '../helpers';

export interface TenantRecords {
  memberId: string;
  workspaceId: string;
  roleId: string;
  connectionId: string;
  apiKeyId: string;
  /** A table registered from the connection's embedded database, with columns id, name and notes. */
  tableId: string;
}

/** A few records of each kind in the company, so that hostile requests can be aimed at real rows. */
export async function seedTenantRecords(server: TestServer, token: string): Promise<TenantRecords> {
  const created = async (path: string, body: unknown) => {
    const res = await call(server, 'POST', path, { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const database = `hostile-${crypto.randomBytes(4).toString('hex')}`;
  const connectionId = await created('/connections', { name: 'Shop', type: 'embedded', settings: { database } });
  const source = server.app.ctx.connectors.open({
    companyId: server.company.companyId,
    type: 'embedded',
    settings: { database },
    secrets: {},
  });
  if (!isTableSource(source)) throw new Error('an embedded database is a table source');
  try {
    await source.query('create table public.items (id int primary key, name text, notes text)', [], { timeoutMs: 30_000 });
  } finally {
    await source.close();
  }
  return {
    memberId: (await inviteUser(server, token, { email: 'member@acme.test' })).id,
    workspaceId: await created('/workspaces', { name: 'Finance', description: 'Money' }),
    roleId: await created('/roles', { name: 'Analyst', description: 'Reads' }),
    connectionId,
    apiKeyId: await created('/apikey', { name: 'Reporting' }),
    tableId: await created('/table', { connectionId, endpoint: 'public.items' }),
  };
}
