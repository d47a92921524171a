import { percentile } from '../bench/stats.mjs';
import { apiClient, keepAliveAgent, signIn, sleep } from './server.mjs';
import { USER_PASSWORD, simulatedEmail } from './seed.mjs';

/**
 * Simulated people browsing the console's lists. Each signs in once, as a user of their own, and
 * then, until the time is up, picks a list (users, system audits, access events, workflows, job
 * runs, connections, notifications) and does what a person does there, thinking between steps:
 *
 *   open the list (its first page and its cards, at once, as the console asks for them)
 *   → open the filter form (its choices) → apply a filter → search → page forward
 *   → open one record of the page (where the list has records to open).
 *
 * Think time is drawn evenly between 0.5 and 2 s before every step. Every call is recorded: its
 * family (list and step), status and latency as the client saw it. An error is any answer other
 * than 2xx, a list answer without rows, or a network error; a call with no answer after 30 s is
 * an error too.
 */

export const THINK_MS = { min: 500, max: 2_000 };

const rand = (n) => Math.floor(Math.random() * n);
const pick = (values) => values[rand(values.length)];
const think = () => sleep(THINK_MS.min + Math.random() * (THINK_MS.max - THINK_MS.min));
const daysAgo = (days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** What each list offers: the calls of each step, given the page answered and the seeded ids. */
export function areas(ids) {
  return [
    {
      name: 'users',
      list: (o) => ['GET', `/users/${o}/10`],
      cards: () => ['GET', '/users/cards'],
      choices: () => ['GET', '/users/filter/props'],
      filter: () => [
        'POST',
        '/users/filter/10/0/DESC/createdAt',
        pick([{ status: 'active', role: ids.memberRoleId }, { workspace: ids.workspaceId }, { status: 'invited' }]),
      ],
      search: () => ['POST', '/users/filter/10/0/DESC/createdAt', { search: `user${1 + rand(100_000)}` }],
      record: (row) => ['GET', `/users/${row.id}`],
    },
    {
      name: 'system audits',
      list: (o) => ['GET', `/system/audits/${o}/10`],
      cards: () => ['GET', '/system/audits/cards'],
      choices: () => ['GET', '/system/audits/filter/props'],
      filter: () => [
        'POST',
        '/system/audits/filter/0/10',
        pick([{ model: pick(['role', 'user', 'workspace']), startDate: daysAgo(30) }, { user: ids.auditUserId }, { operation: 'update' }]),
      ],
      search: () => ['POST', '/system/audits/filter/0/10', { search: String(1 + rand(1_000_000)) }],
      // An audit entry opens its author.
      record: (row) => (row.userId ? ['GET', `/users/${row.userId}`] : undefined),
    },
    {
      name: 'access events',
      list: (o) => ['GET', `/access/events/${o}/10`],
      cards: () => ['GET', '/access/events/cards'],
      choices: () => ['GET', '/access/events/filter/props'],
      filter: () => ['POST', '/access/events/filter/0/10', pick([{ status: 'failure' }, { status: 'blocked' }, { startDate: daysAgo(7) }])],
      search: () => ['POST', '/access/events/filter/0/10', { search: `bench-user${1 + rand(100_000)}@` }],
    },
    {
      name: 'workflows',
      list: (o) => ['GET', `/workflow/${o}/10`],
      cards: () => ['GET', '/workflow/topCards'],
      choices: () => ['GET', '/filters/workflow'],
      filter: () => ['POST', '/workflow/filter/0/10', pick([{ user: ids.adminId }, { startDate: daysAgo(10) }])],
      search: () => ['GET', `/workflow/search/0/10?searchText=${encodeURIComponent(`Workflow ${1 + rand(500)}`)}`],
      record: (row) => ['GET', `/workflow/${row.id}`],
    },
    {
      name: 'job runs',
      list: (o) => ['POST', `/jobRunTracker/filters?offset=${o}&limit=10`, {}],
      cards: () => ['GET', '/dashboard/pieCharts'],
      choices: () => ['GET', '/jobRunTracker/filters/props'],
      filter: () => [
        'POST',
        '/jobRunTracker/filters?offset=0&limit=10',
        pick([{ status: ['failed', 'timed_out'] }, { status: 'canceled', startDate: daysAgo(14) }]),
      ],
      search: () => ['GET', `/jobRunTracker/${pick(ids.workflowIds)}/0/10`],
      record: (row) => ['GET', `/jobRunTracker/${row.id}`],
    },
    {
      name: 'connections',
      list: (o) => ['GET', `/connections/${o}/10`],
      cards: () => ['GET', '/connections/topCards'],
      choices: () => ['GET', '/connections/filters'],
      filter: () => ['POST', '/connections/filter/0/10', pick([{ type: 'postgresql' }, { status: 'failing' }, { source: true }])],
      search: () => ['GET', `/connections/search/0/10?searchText=${encodeURIComponent(`db${1 + rand(300)}`)}`],
      record: (row) => ['GET', `/connection/${row.id}`],
    },
    {
      name: 'notifications',
      list: (o) => ['GET', `/notification/${o}/10`],
      cards: () => ['GET', '/notifications/count'],
      choices: () => ['GET', '/notification/options'],
      filter: () => ['POST', '/notification/filter/0/10/DESC/createdAt', pick([{ status: 'unread' }, { type: 'job_failed' }])],
      search: () => ['GET', `/notification/search/0/10/${encodeURIComponent(`Notice ${1 + rand(100_000)}`)}`],
    },
  ];
}

/** Every call's outcome, by family. */
class Recorder {
  constructor() {
    this.families = new Map();
    this.samples = [];
    /** Every failed call: when it was sent and when it ended (ms since the epoch), its method, and its kind (the status, or the network error's code). */
    this.failures = [];
  }
  add(family, ms, ok, what, failure) {
    let entry = this.families.get(family);
    if (!entry) this.families.set(family, (entry = { times: [], errors: 0 }));
    entry.times.push(ms);
    if (!ok) {
      entry.errors += 1;
      if (this.samples.length < 20) this.samples.push(`${family}: ${what}`);
      if (failure) this.failures.push(failure);
    }
  }
}

async function timed(recorder, family, call, [method, path, body], { expectRows = false } = {}) {
  const started = performance.now();
  const at = Date.now();
  try {
    const res = await call(method, path, body);
    const ms = performance.now() - started;
    const rows = res.body?.data?.rows;
    const ok = res.status >= 200 && res.status < 300 && (!expectRows || Array.isArray(rows));
    const kind = res.status >= 200 && res.status < 300 ? 'no rows' : `HTTP ${res.status}`;
    recorder.add(family, ms, ok, `${method} ${path} → ${res.status} ${res.text.slice(0, 160)}`, { at, endedAt: Date.now(), method, kind });
    return ok ? res.body : undefined;
  } catch (error) {
    const kind = error.code ?? 'network error';
    recorder.add(family, performance.now() - started, false, `${method} ${path} → ${error.code ?? ''} ${error.message}`, {
      at,
      endedAt: Date.now(),
      method,
      kind,
    });
    return undefined;
  }
}

/** One person's visit to one list. */
async function browse(area, call, recorder) {
  const family = (step) => `${area.name}: ${step}`;
  const [page] = await Promise.all([
    timed(recorder, family('list'), call, area.list(0), { expectRows: true }),
    timed(recorder, family('cards'), call, area.cards()),
  ]);
  await think();
  await timed(recorder, family('filter choices'), call, area.choices());
  await think();
  const filtered = await timed(recorder, family('filter'), call, area.filter(), { expectRows: true });
  await think();
  await timed(recorder, family('search'), call, area.search(), { expectRows: true });
  await think();
  const next = await timed(recorder, family('next page'), call, area.list(10 * (1 + rand(3))), { expectRows: true });
  const rows = [...(next?.data?.rows ?? []), ...(filtered?.data?.rows ?? []), ...(page?.data?.rows ?? [])];
  if (area.record && rows.length > 0) {
    const target = area.record(pick(rows));
    if (target) {
      await think();
      await timed(recorder, family('record'), call, target);
    }
  }
  await think();
}

/**
 * Signs `users` people in (a few at a time: each sign-in is a deliberate argon2 hash), then lets
 * them browse for `seconds`. Answers the figures.
 */
export async function runLoad({ baseUrl, users, seconds, ids, alone = new Map(), signInConcurrency = 4, onBrowsing = () => {} }) {
  const agent = keepAliveAgent(users);
  const recorder = new Recorder();
  const signInTimes = [];
  const tokens = new Array(users);
  let next = 0;
  const signer = async () => {
    while (next < users) {
      const n = next++;
      const started = performance.now();
      tokens[n] = await signIn(
        baseUrl,
        { email: simulatedEmail(n + 1), password: USER_PASSWORD, companyHostname: ids.hostname },
        { agent },
      );
      signInTimes.push(performance.now() - started);
    }
  };
  const rampStarted = performance.now();
  await Promise.all(Array.from({ length: signInConcurrency }, signer));
  const rampSeconds = (performance.now() - rampStarted) / 1000;

  const all = areas(ids);
  const deadline = performance.now() + seconds * 1000;
  const person = async (token) => {
    const call = apiClient(baseUrl, token, { agent });
    await sleep(Math.random() * THINK_MS.max); // people do not all start in step
    while (performance.now() < deadline) await browse(pick(all), call, recorder);
  };
  const started = performance.now();
  // Everyone is signed in: what happens during the browsing (a fault run beside it) starts now.
  onBrowsing();
  await Promise.all(tokens.map(person));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return summarise(recorder, { users, seconds, elapsed, rampSeconds, signInTimes, alone });
}

function summarise(recorder, { users, seconds, elapsed, rampSeconds, signInTimes, alone }) {
  const everything = [];
  let errors = 0;
  const families = [...recorder.families.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { times, errors: failed }]) => {
      everything.push(...times);
      errors += failed;
      return {
        name,
        alone: alone.get(name),
        calls: times.length,
        errors: failed,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        max: Math.max(...times),
      };
    });
  return {
    users,
    seconds,
    elapsed,
    rampSeconds,
    signIn: { count: signInTimes.length, p50: percentile(signInTimes, 50), p95: percentile(signInTimes, 95) },
    calls: everything.length,
    errors,
    overall: {
      p50: percentile(everything, 50),
      p95: percentile(everything, 95),
      p99: percentile(everything, 99),
      max: Math.max(...everything),
    },
    families,
    samples: recorder.samples,
    failures: recorder.failures,
  };
}

/** The ids the filters use, read from the seeded database. */
export async function loadIds(query, hostname) {
  const [company] = await query(`select id from companies where hostname = '${hostname}'`);
  const c = company.id;
  const [member] = await query(`select id from roles where company_id = '${c}' and name = 'Member'`);
  const [workspace] = await query(`select id from workspaces where company_id = '${c}' order by name limit 1`);
  const [auditor] = await query(`select user_id from system_audits where company_id = '${c}' and user_id is not null limit 1`);
  const [admin] = await query(
    `select u.id from users u join roles r on r.id = u.role_id where u.company_id = '${c}' and r.is_admin order by u.created_at limit 1`,
  );
  const workflows = await query(`select id from workflows where company_id = '${c}' order by created_at desc limit 50`);
  return {
    hostname,
    memberRoleId: member.id,
    workspaceId: workspace.id,
    auditUserId: auditor.user_id,
    adminId: admin.id,
    workflowIds: workflows.map((w) => w.id),
  };
}

/**
 * What each call family costs with nobody else calling: every call once per round, `rounds` times,
 * one after another, as the admin; the median per family. Run before the people sign in, it is
 * also their warm-up (code compiled, plans made).
 */
export async function measureAlone(baseUrl, token, ids, rounds = 3) {
  const call = apiClient(baseUrl, token);
  const times = new Map();
  const time = async (family, [method, path, body]) => {
    const started = performance.now();
    const res = await call(method, path, body);
    const list = times.get(family) ?? [];
    list.push(performance.now() - started);
    times.set(family, list);
    return res.body;
  };
  for (let round = 0; round < rounds; round++) {
    for (const area of areas(ids)) {
      const page = await time(`${area.name}: list`, area.list(0));
      await time(`${area.name}: cards`, area.cards());
      await time(`${area.name}: filter choices`, area.choices());
      await time(`${area.name}: filter`, area.filter());
      await time(`${area.name}: search`, area.search());
      await time(`${area.name}: next page`, area.list(10 * (1 + rand(3))));
      const row = page?.data?.rows?.[round % Math.max(1, page?.data?.rows?.length ?? 1)];
      const target = row && area.record?.(row);
      if (target) await time(`${area.name}: record`, target);
    }
  }
  return new Map([...times].map(([family, list]) => [family, percentile(list, 50)]));
}

/** A quick pass over every call a person makes, once, failing on the first call that does not answer 2xx (a check of the load's own calls). */
export async function checkCalls(baseUrl, token, ids) {
  const call = apiClient(baseUrl, token);
  const problems = [];
  for (const area of areas(ids)) {
    for (const [step, make] of Object.entries({
      list: () => area.list(0),
      cards: area.cards,
      choices: area.choices,
      filter: area.filter,
      search: area.search,
    })) {
      const [method, path, body] = make();
      const res = await call(method, path, body);
      if (res.status < 200 || res.status > 299)
        problems.push(`${area.name} ${step}: ${method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
    }
  }
  return problems;
}
