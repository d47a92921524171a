import { generateSync } from 'otplib';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_BASE_URL, E2E_COMPANY } from './env';

/** Straight calls to the real server, to set up what a browser test needs. */
export async function api<T = Record<string, unknown>>(
  path: string,
  options: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${E2E_BASE_URL}/api/v1${path}`, {
    method: options.method ?? (options.body ? 'POST' : 'GET'),
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { 'x-access-token': options.token } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

export async function adminToken(): Promise<string> {
  const res = await api<{ user: { accessToken: string } }>('/signin', {
    body: { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY },
  });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.user.accessToken;
}

let counter = 0;
/** A unique address per call, so tests never collide on one server. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@demo.local`;
}

interface RoleRow {
  id: string;
  name: string;
}

/** Invites a user (as the admin) and returns the invitation mail's link and temporary password. */
export async function inviteUser(email: string, firstName = 'Test', lastName = 'User', roleName = 'Member') {
  const token = await adminToken();
  const roleId = await roleIdByName(token, roleName);
  const res = await api('/user', { token, body: { email, firstName, lastName, roleId } });
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`);
  const mail = await lastMailTo(email, token);
  const link = mail.text.match(/https?:\/\/\S+\/auth\/activate-user-account\?token=[\w-]+/)?.[0];
  const temporaryPassword = mail.text.match(/^Temporary password: (\S+)$/m)?.[1];
  if (!link || !temporaryPassword) throw new Error(`unexpected invitation mail:\n${mail.text}`);
  return { link, temporaryPassword };
}

async function roleIdByName(token: string, name: string): Promise<string> {
  const roles = await api<{ data: RoleRow[] }>('/roles/active', { token });
  const role = roles.body.data.find((r) => r.name === name);
  if (!role) throw new Error(`no role named ${name}`);
  return role.id;
}

/** The newest mail sent to an address, read from the outbox as the admin. */
export async function lastMailTo(address: string, token?: string): Promise<{ subject: string; text: string }> {
  const t = token ?? (await adminToken());
  const list = await api<{ data: { rows: { id: string; toAddress: string }[] } }>('/mail/outbox/0/50', { token: t });
  const row = list.body.data.rows.find((r) => r.toAddress === address);
  if (!row) throw new Error(`no mail to ${address}`);
  const mail = await api<{ data: { subject: string; text: string } }>(`/mail/outbox/${row.id}`, { token: t });
  return mail.body.data;
}

/** The TOTP code an authenticator app would show now (or `stepOffset` steps away). */
export function totp(secret: string, stepOffset = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepOffset * 30 });
}

/** Invites a user and activates the account through the API; returns its credentials. */
export async function createActiveUser(prefix: string, options: { firstName?: string; lastName?: string; roleName?: string } = {}) {
  const email = uniqueEmail(prefix);
  const password = 'Active-user-pass-7';
  const { link, temporaryPassword } = await inviteUser(email, options.firstName ?? 'Test', options.lastName ?? 'User', options.roleName);
  const defaultPasswordToken = new URL(link).searchParams.get('token')!;
  const res = await api('/user/password/create', { body: { defaultPasswordToken, oldPassword: temporaryPassword, newPassword: password } });
  if (res.status !== 200) throw new Error(`activation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, password, companyHostname: E2E_COMPANY };
}

interface Named {
  id: string;
  name: string;
}

/** A connection of the company found by its name (the sample ones: "Sample shop", "Sample warehouse"). */
export async function connectionNamed(token: string, name: string): Promise<Named> {
  const found = await api<{ data: { rows: Named[] } }>(`/connections/search/0/50?searchText=${encodeURIComponent(name)}`, { token });
  const connection = found.body.data?.rows?.find((row) => row.name === name);
  if (!connection) throw new Error(`no connection "${name}": ${JSON.stringify(found.body)}`);
  return connection;
}

/** A table of the sample shop, registered now unless it already is. */
export async function sampleTable(token: string, name: string): Promise<Named> {
  const shop = await connectionNamed(token, 'Sample shop');
  const registered = await api<{ data: Named[] }>(`/table/connection/${shop.id}`, { token });
  const known = registered.body.data.find((row) => row.name === name);
  if (known) return known;
  const endpoints = await api<{ data: Named[] }>(`/connection/${shop.id}/endpoints`, { token });
  const endpoint = endpoints.body.data.find((row) => row.name === name);
  if (!endpoint) throw new Error(`the sample shop has no table "${name}": ${JSON.stringify(endpoints.body)}`);
  const created = await api<{ data: Named }>('/table', { token, body: { connectionId: shop.id, endpoint: endpoint.id, name } });
  if (created.status !== 201)
    throw new Error(`the table "${name}" could not be registered: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}

/** A workflow of one copy task, made through the API; its id. */
export async function copyWorkflow(
  token: string,
  workflow: {
    name: string;
    pairId: string;
    task: string;
    from: string;
    to: string;
    mode: 'create' | 'replace' | 'append';
    batchSize?: number;
  },
): Promise<string> {
  const { name, pairId, task, from, to, mode, batchSize } = workflow;
  const made = await api<{ data: { id: string } }>('/workflow', {
    token,
    body: { name, pairId, tasks: [{ id: 'copy', name: task, type: 'copy', from: { table: from }, to: { table: to, mode }, batchSize }] },
  });
  if (made.status !== 201) throw new Error(`the workflow "${name}" could not be made: ${made.status} ${JSON.stringify(made.body)}`);
  return made.body.data.id;
}

interface RunState {
  id: string;
  status: string;
  error: string | null;
}

/**
 * Appends the rows `query` reads from the sample shop to `table` of the sample warehouse (made
 * when missing), by a workflow of one copy task made and run through the API; waits until the
 * run has succeeded. The workflow's id (`GET /workflow/destinationRows/{id}` counts its table).
 */
export async function appendToWarehouse(token: string, load: { name: string; query: string; table: string }): Promise<string> {
  const pairName = 'Sample shop → Sample warehouse';
  const pairs = await api<{ data: Named[] }>('/active/source/destination', { token });
  const pair = pairs.body.data.find((candidate) => candidate.name === pairName);
  if (!pair) throw new Error(`no pair "${pairName}": ${JSON.stringify(pairs.body)}`);
  const made = await api<{ data: { id: string; jobId?: string } }>('/workflow', {
    token,
    body: {
      name: load.name,
      pairId: pair.id,
      tasks: [{ id: 'load', name: load.name, type: 'copy', from: { query: load.query }, to: { table: load.table, mode: 'append' } }],
    },
  });
  if (made.status !== 201) throw new Error(`the workflow "${load.name}" could not be made: ${made.status} ${JSON.stringify(made.body)}`);
  const workflowId = made.body.data.id;
  const started = await api<{ data: RunState }>(`/workflow/run/${made.body.data.jobId ?? workflowId}`, { token, body: {} });
  if (started.status !== 202)
    throw new Error(`the workflow "${load.name}" did not start: ${started.status} ${JSON.stringify(started.body)}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = (await api<{ data: RunState }>(`/jobRunTracker/${started.body.data.id}`, { token })).body.data;
    if (run.status === 'succeeded') return workflowId;
    if (['failed', 'canceled', 'timed_out'].includes(run.status))
      throw new Error(`the load "${load.name}" ${run.status}: ${run.error ?? ''}`);
    if (Date.now() > deadline) throw new Error(`the load "${load.name}" did not end within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
