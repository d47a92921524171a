import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, createOtherCompany, inviteUser, signInAdmin, signInFully } from './helpers';
import { rolePages, rolePolicies, roles, systemAudits } from '../../server/db/schema';
import { upgradeDefaultRoles } from '../../server/roles/defaults';

const DENIED = 'Resource Access not provided';

let server: TestServer;
let adminToken: string;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token!;
});
afterAll(async () => {
  await server?.close();
});

async function pagesOf(companyId: string, roleId: string) {
  const rows = await server.db
    .select({ pageId: rolePages.pageId })
    .from(rolePages)
    .where(and(eq(rolePages.companyId, companyId), eq(rolePages.roleId, roleId)));
  return rows.map((r) => r.pageId).sort();
}

async function roleNamed(companyId: string, name: string) {
  const [role] = await server.db
    .select()
    .from(roles)
    .where(and(eq(roles.companyId, companyId), eq(roles.name, name)));
  return role;
}

async function signedInWithRole(email: string, roleId: string) {
  const user = await createActiveUser(server, adminToken, { email, roleId });
  return (await signInFully(server, { email: user.email, password: user.password })).accessToken!;
}

describe('the default roles of a new company', () => {
  it("lets a Member read the company's data work, and change none of it", async () => {
    const token = await signedInWithRole('member.reader@acme.test', server.company.memberRoleId);
    for (const path of ['/connections/0/10', '/workflow/0/10', '/tables/0/10']) {
      const res = await call(server, 'GET', path, { token });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    expect((await call(server, 'POST', '/jobRunTracker/filters?offset=0&limit=10', { token, body: {} })).statusCode).toBe(200);
    const create = await call(server, 'POST', '/connections', { token, body: { name: 'Not mine to make', type: 'postgres' } });
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toBe(DENIED);
    expect((await call(server, 'GET', '/users/0/10', { token })).statusCode).toBe(403);
    const nav = await call(server, 'GET', '/authorization/user/policies', { token });
    expect(nav.json().data.policies).toEqual(
      expect.arrayContaining([
        { resource: 'connections', actions: ['read'] },
        { resource: 'tables', actions: ['read'] },
        { resource: 'workflows', actions: ['read'] },
      ]),
    );
    expect(await pagesOf(server.company.companyId, server.company.memberRoleId)).toEqual(
      ['connections', 'dashboard', 'job-runs', 'notifications', 'reports', 'source-destinations', 'tables', 'workflows'].sort(),
    );
  });

  it('has a read-only Viewer who sees the people too, and may change nothing', async () => {
    const token = await signedInWithRole('viewer@acme.test', server.company.viewerRoleId);
    expect((await call(server, 'GET', '/users/0/10', { token })).statusCode).toBe(200);
    expect((await call(server, 'GET', '/connections/0/10', { token })).statusCode).toBe(200);
    const invite = await call(server, 'POST', '/user', {
      token,
      body: { email: 'nope@acme.test', firstName: 'No', lastName: 'Pe', roleId: server.company.memberRoleId },
    });
    expect(invite.statusCode).toBe(403);
    const policies = (await call(server, 'GET', '/authorization/user/policies', { token })).json().data.policies as {
      actions: string[];
    }[];
    expect(policies.length).toBeGreaterThan(5);
    expect(policies.every((p) => p.actions.join() === 'read')).toBe(true);
  });
});

describe('companies made before the default roles', () => {
  it('are given them once, and a role the company edited is left as it is', async () => {
    // Two companies as older versions made them: a Member with the dashboard and notifications only, no Viewer.
    const untouched = await createOtherCompany(server, 'olden');
    const edited = await createOtherCompany(server, 'edited');
    for (const company of [untouched, edited]) {
      await server.db.delete(roles).where(and(eq(roles.companyId, company.companyId), eq(roles.id, company.viewerRoleId)));
      await server.db.delete(rolePolicies).where(eq(rolePolicies.companyId, company.companyId));
      await server.db.delete(rolePages).where(and(eq(rolePages.companyId, company.companyId), eq(rolePages.roleId, company.memberRoleId)));
      await server.db
        .insert(rolePages)
        .values(['dashboard', 'notifications'].map((pageId) => ({ companyId: company.companyId, roleId: company.memberRoleId, pageId })));
    }
    // The second company had given its members the workspaces page.
    await server.db.insert(rolePages).values({ companyId: edited.companyId, roleId: edited.memberRoleId, pageId: 'workspaces' });

    const written = await upgradeDefaultRoles(server.db);
    expect(written).toBe(3);
    expect(await pagesOf(untouched.companyId, untouched.memberRoleId)).toContain('connections');
    expect(await pagesOf(edited.companyId, edited.memberRoleId)).toEqual(['dashboard', 'notifications', 'workspaces']);
    for (const company of [untouched, edited]) {
      const viewer = await roleNamed(company.companyId, 'Viewer');
      expect(viewer.type).toBe('system');
      expect(await pagesOf(company.companyId, viewer.id)).toContain('users');
    }
    const audits = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, untouched.companyId), eq(systemAudits.model, 'role')));
    expect(audits.map((a) => a.operation).sort()).toEqual(['create', 'update']);

    // Again: nothing left to do.
    expect(await upgradeDefaultRoles(server.db)).toBe(0);
  });
});

describe('GET /company/admins', () => {
  it("names the company's active admins to any signed-in user, and no one else's", async () => {
    const token = await signedInWithRole('asks.for.access@acme.test', server.company.memberRoleId);
    const res = await call(server, 'GET', '/company/admins', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([{ name: 'Ada Admin', email: server.company.adminEmail }]);
    expect((await call(server, 'GET', '/company/admins')).statusCode).toBe(401);
  });
});

describe('GET /company/signup', () => {
  it('tells anyone whether a company can be created here', async () => {
    const res = await call(server, 'GET', '/company/signup');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ open: true });
    const closed = await createTestServer({ allowCompanySignup: false });
    try {
      const answer = await closed.app.inject({ method: 'GET', url: '/api/v1/company/signup' });
      expect(answer.json().data).toEqual({ open: false });
    } finally {
      await closed.close();
    }
  });
});

describe('invitations without a mail server', () => {
  it('say the invitation is kept in the Mail outbox, and the activation link names the host name', async () => {
    const res = await call(server, 'POST', '/user', {
      token: adminToken,
      body: { email: 'outboxed@acme.test', firstName: 'Out', lastName: 'Boxed', roleId: server.company.memberRoleId },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatch(/kept in the Mail outbox/);
    const invitation = await inviteUser(server, adminToken, { email: 'verify.me@acme.test' });
    const verify = await call(server, 'POST', '/user/verify', { body: { token: invitation.token } });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data).toMatchObject({ email: 'verify.me@acme.test', companyHostname: 'acme' });
  });
});
