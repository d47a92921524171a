import http from 'node:http';
import { percentile } from './stats.mjs';

/**
 * List and filter calls of the administration areas at scale: one tenant with 100,000 users,
 * 1,000,000 system-audit rows and 200,000 access events, beside another tenant's rows, with
 * 10 clients calling at once. Each figure is the latency a client saw, over loopback.
 */

export const SCALE = {
  users: 100_000,
  audits: 1_000_000,
  accessEvents: 200_000,
  otherUsers: 20_000,
  otherAudits: 200_000,
  workspaces: 10,
};

/**
 * Seeds the bench tenant and another one. `exec(sql)` runs one statement on the server's
 * database (PGlite or PostgreSQL); the server must already have migrated and bootstrapped it.
 */
export async function seedListData(exec, query, hostname) {
  const [company] = await query(`select id from companies where hostname = '${hostname}'`);
  const [member] = await query(`select id from roles where company_id = '${company.id}' and name = 'Member'`);
  const other = await ensureOtherCompany(exec, query);
  await seedTenant(exec, company.id, member.id, 'bench', SCALE.users, SCALE.audits, SCALE.accessEvents);
  await seedTenant(exec, other.companyId, other.roleId, 'other', SCALE.otherUsers, SCALE.otherAudits, 0);
  // A settled database, as autovacuum leaves one: statistics taken and pages marked all-visible (index-only scans).
  await exec('vacuum analyze');
}

async function ensureOtherCompany(exec, query) {
  await exec(`insert into companies (name, hostname) values ('Other', 'other-bench') on conflict do nothing`);
  const [company] = await query(`select id from companies where hostname = 'other-bench'`);
  await exec(`insert into roles (company_id, name, type) values ('${company.id}', 'Member', 'system') on conflict do nothing`);
  const [role] = await query(`select id from roles where company_id = '${company.id}' and name = 'Member'`);
  return { companyId: company.id, roleId: role.id };
}

async function seedTenant(exec, companyId, roleId, tag, users, audits, events) {
  const c = `'${companyId}'::uuid`;
  await exec(`
    insert into workspaces (company_id, name)
    select ${c}, 'Workspace ' || g from generate_series(1, ${SCALE.workspaces}) g`);
  await exec(`
    insert into users (company_id, email, username, first_name, last_name, status, is_active, role_id, created_at)
    select ${c}, '${tag}-user' || g || '@example.test', '${tag}.user' || g, 'First' || g, 'Last' || g,
           case when g % 10 = 0 then 'invited' else 'active' end, g % 50 <> 0, '${roleId}',
           now() - (g || ' minutes')::interval
    from generate_series(1, ${users}) g`);
  await exec(`
    insert into workspace_members (company_id, workspace_id, user_id, user_created_at)
    select u.company_id, w.id, u.id, u.created_at
    from (select id, company_id, created_at, row_number() over (order by id) as n from users where company_id = ${c}) u
    join (select id, row_number() over (order by id) as n from workspaces where company_id = ${c}) w
      on w.n = 1 + (u.n % ${SCALE.workspaces})`);
  const models = `(array['user','role','workspace','apikey','session','company'])`;
  const operations = `(array['create','update','delete','activate','deactivate'])`;
  // In batches, so PGlite's single connection never holds one enormous statement.
  const batch = 200_000;
  for (let start = 1; start <= audits; start += batch) {
    const end = Math.min(audits, start + batch - 1);
    await exec(`
      insert into system_audits (company_id, user_id, model, operation, record_id, changes, created_at)
      select ${c}, u.ids[1 + (g % array_length(u.ids, 1))], ${models}[1 + (g % 6)], ${operations}[1 + (g % 5)],
             'record-' || g, jsonb_build_object('after', jsonb_build_object('n', g)),
             now() - ((g * 30) || ' seconds')::interval
      from generate_series(${start}, ${end}) g,
           (select array_agg(id) as ids from (select id from users where company_id = ${c} limit 1000) s) u`);
  }
  if (events > 0) {
    await exec(`
      insert into access_events (company_id, user_id, email, event, status, ip, user_agent, created_at)
      select ${c}, null, '${tag}-user' || (1 + g % ${users}) || '@example.test',
             (array['signin','otp','logout','password_change'])[1 + (g % 4)],
             case when g % 7 = 0 then 'failure' when g % 97 = 0 then 'blocked' else 'success' end,
             '10.0.' || (g % 250) || '.' || (g % 200), 'bench-agent', now() - ((g * 60) || ' seconds')::interval
      from generate_series(1, ${events}) g`);
  }
}

/** p95 targets of the deep page, by database: it reads from a kept anchor (server/http/lists.ts, ANCHOR_STRIDE). */
export const DEEP_PAGE_TARGETS = { PostgreSQL: 50, PGlite: 150 };

/**
 * The calls measured: lists, and filters a user would set. Each is called again and again, as a
 * user paging through a list does, so the count of a filter is taken once and then kept (see
 * server/db/table-watch.ts); `fresh` calls change their filter on every call, so that every call
 * counts afresh: what the first page of a new filter costs.
 */
function calls(seedStart) {
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  // A start date a few milliseconds different on every call: the same rows, never the same filter.
  const freshStart = () => new Date(Date.now() - 300 * 86_400_000 - Math.floor(Math.random() * 86_400_000)).toISOString();
  return [
    { name: 'users list', method: 'GET', path: '/users/0/10' },
    { name: 'users list, page 50', method: 'GET', path: '/users/490/10' },
    {
      name: 'users filter (status, role)',
      method: 'POST',
      path: '/users/filter/10/0/DESC/createdAt',
      body: { status: 'active', role: seedStart.memberRoleId },
    },
    {
      name: 'users filter (workspace)',
      method: 'POST',
      path: '/users/filter/10/0/DESC/createdAt',
      body: { workspace: seedStart.workspaceId },
    },
    { name: 'users search', method: 'POST', path: '/users/filter/10/0/DESC/createdAt', body: { search: 'user4242' } },
    { name: 'audits list', method: 'GET', path: '/system/audits/0/10' },
    { name: 'audits list, page at offset 500,000', method: 'GET', path: '/system/audits/500000/10', targets: DEEP_PAGE_TARGETS },
    {
      name: 'audits filter (model, last 30 days)',
      method: 'POST',
      path: '/system/audits/filter/0/10',
      body: { model: 'role', startDate: monthAgo },
    },
    { name: 'audits filter (user)', method: 'POST', path: '/system/audits/filter/0/10', body: { user: seedStart.auditUserId } },
    { name: 'audits search', method: 'POST', path: '/system/audits/filter/0/10', body: { search: '424242' } },
    {
      name: 'audits search, a three-digit number',
      method: 'POST',
      path: '/system/audits/filter/0/10',
      body: { search: '123' },
      target: false,
    },
    { name: 'access events list', method: 'GET', path: '/access/events/0/10' },
    { name: 'access events filter (status)', method: 'POST', path: '/access/events/filter/0/10', body: { status: 'failure' } },
    { name: 'access events search', method: 'POST', path: '/access/events/filter/0/10', body: { search: 'bench-user4242@' } },
    {
      name: 'audits filter, a new one every call',
      method: 'POST',
      path: '/system/audits/filter/0/10',
      body: () => ({ startDate: freshStart() }),
      target: false,
    },
    {
      name: 'audits page at offset 500,000, a new filter every call',
      method: 'POST',
      path: '/system/audits/filter/500000/10',
      body: () => ({ startDate: freshStart() }),
      target: false,
    },
    {
      name: 'users filter, a new one every call',
      method: 'POST',
      path: '/users/filter/10/0/DESC/createdAt',
      body: () => ({ startDate: freshStart() }),
      target: false,
    },
  ];
}

/**
 * The client: node:http with kept-alive connections. It shares the machine's cores with the
 * server and the database, so it has to be light: Node's fetch costs several times more CPU per
 * call than this, which the figures would then count as the server's.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function request(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function callOnce(baseUrl, token, call) {
  const body = typeof call.body === 'function' ? call.body() : call.body;
  return request(`${baseUrl}/api/v1${call.path}`, {
    method: call.method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** 10 clients call one route as fast as they can for `seconds`; latencies of every call. */
async function hammer(baseUrl, token, call, { clients = 10, seconds = 8 } = {}) {
  const times = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const res = await callOnce(baseUrl, token, call);
      let rows;
      try {
        rows = JSON.parse(res.text)?.data?.rows;
      } catch {
        rows = undefined;
      }
      times.push(performance.now() - started);
      if (res.status !== 200 || !Array.isArray(rows)) {
        errors += 1;
        if (errors === 1) console.error(`${call.name}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { times, errors };
}

/** Seconds each call is run, unmeasured, before any is measured. */
export const WARM_UP_SECONDS = 3;

/**
 * Runs every call against a seeded server; returns table rows. A warm-up pass over every call
 * comes first, so that the figures are those of a server that has been running for a while (its
 * code compiled by the JIT, its plans and kept counts made), not of its first seconds.
 */
export async function measureListCalls({ baseUrl, token, ids, label, target, seconds }) {
  for (const call of calls(ids)) await hammer(baseUrl, token, call, { seconds: WARM_UP_SECONDS });
  const rows = [];
  for (const call of calls(ids)) {
    const { times, errors } = await hammer(baseUrl, token, call, { seconds });
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    const goal = call.targets?.[label] ?? target;
    const verdict = call.target === false ? 'not a target (see below)' : p95 <= goal ? 'met' : `**missed** (${goal} ms)`;
    rows.push(
      `| ${label} | ${call.name} | ${times.length} | ${(times.length / seconds).toFixed(0)}/s | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms | ${errors} | ${verdict} |`,
    );
    console.log(rows.at(-1));
  }
  return rows;
}

export function listSection(rows, seconds) {
  return [
    '## Lists and filters at scale',
    '',
    `Command: \`npm run bench\` (tests/bench/lists.mjs). One tenant with ${SCALE.users.toLocaleString('en')} users, ` +
      `${SCALE.audits.toLocaleString('en')} system-audit rows and ${SCALE.accessEvents.toLocaleString('en')} access events, ` +
      `beside another tenant with ${SCALE.otherUsers.toLocaleString('en')} users and ${SCALE.otherAudits.toLocaleString('en')} audit rows. ` +
      'The server runs compiled (`npm run build:server`), as `npm start` and the image run it. ' +
      `10 clients call each route as fast as they can for ${seconds} s, over loopback, signed in as the tenant's admin, after a ` +
      `warm-up pass of ${WARM_UP_SECONDS} s on every call (a server that has run a while: its code compiled, its plans and kept counts made). ` +
      'The clients run on the same machine as the server and the database, on node:http with kept-alive connections. ' +
      'Targets: p95 ≤ 20 ms on PostgreSQL, ≤ 100 ms on PGlite; the page at offset 500,000: ≤ 50 ms on PostgreSQL, ≤ 150 ms on PGlite.',
    '',
    '| database | call | calls | rate | p50 | p95 | errors | target |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'How these figures are reached: counts stop at 10,000 (docs/api.md), and a count is kept per tenant and filter until the server ' +
      'writes a table it read, so paging through a list counts once; session checks, policy grants and role names are kept the same ' +
      "way (server/db/table-watch.ts); a users page with its workspaces is one statement; one workspace's members are read newest " +
      'first from an index; the searches of users, audits and access events read trigram indexes over the fields they search; ' +
      'on PostgreSQL every statement but a ' +
      'text search is named, with its page bounds and fixed values written in, so each connection plans a list page once. ' +
      "Row-level security is one equality on the session's company, which the planner estimates right (system work runs as a role " +
      "that bypasses it), and every list's order has an index with its id tie-break (migration 0018). Past 1,000 rows a page reads " +
      'its ids from that index alone and then its rows by id (a deferred join); past 10,000 it starts from a kept anchor, the ' +
      "order's values at every 10,000th row, found once per filter and kept like a count, so a page 500,000 rows deep reads fewer " +
      'than 10,000 index entries.',
    '',
    'Not a target: **a new filter every call** changes the filter on each call (a start date a few milliseconds apart), so every ' +
      'call takes a fresh count of up to 10,000 rows: the cost of the first page of a filter nobody has used yet, which the rows ' +
      'above pay once. **A deep page with a new filter every call** is the same for the page 500,000 rows deep: each call finds ' +
      'its anchor afresh, reading 500,000 index entries (no table rows). **A three-digit number** is the search that matches ' +
      'most through the index: about 4,000 entries hold `123`, and 200 users (the most a search looks for) hold it in their ' +
      'addresses; each call reads every one of those entries to count and order them.',
  ];
}
