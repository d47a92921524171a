import { ms, percentile } from './stats.mjs';

/**
 * One company's slow statement against everybody else: the real server on the embedded database,
 * with its sample shop. Company A's custom data-quality rule sleeps 30 s in its embedded source;
 * meanwhile `/health` and company B's users list are called one after another, 100 times each,
 * and their latencies are set beside the same calls made with nothing sleeping. Part of
 * `npm run bench` (BENCH_ONLY=isolation).
 */

export const CALLS = 100;
const SLEEP_SECONDS = 30;

async function json(baseUrl, method, path, { token, body } = {}) {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { 'x-access-token': token } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${answer.message}`);
  return answer;
}

async function signIn(baseUrl, account) {
  return (await json(baseUrl, 'POST', '/signin', { body: account })).user.accessToken;
}

/** Each call's time, one after another. */
async function timeCalls(calls) {
  const times = [];
  for (let i = 0; i < CALLS; i += 1) {
    for (const [index, call] of calls.entries()) {
      const started = performance.now();
      const res = await call();
      times[index] ??= [];
      times[index].push(performance.now() - started);
      if (!res.ok) throw new Error(`a call answered ${res.status}`);
      await res.arrayBuffer();
    }
  }
  return times;
}

export async function measureIsolation({ baseUrl, account }) {
  const sleeper = await signIn(baseUrl, account);
  const other = { email: 'admin@other.bench', password: account.password, companyHostname: 'other-bench' };
  await json(baseUrl, 'POST', '/company', {
    body: {
      companyName: 'Other bench',
      companyHostname: other.companyHostname,
      adminEmail: other.email,
      adminPassword: other.password,
      firstName: 'Other',
      lastName: 'Admin',
    },
  });
  const otherToken = await signIn(baseUrl, other);

  // A's sample shop, a table of it, and a rule that sleeps.
  const shop = (await json(baseUrl, 'GET', '/connections/0/50', { token: sleeper })).data.rows.find((row) => row.name === 'Sample shop');
  if (!shop) throw new Error('the sample shop was not created');
  const table = (await json(baseUrl, 'POST', '/table', { token: sleeper, body: { connectionId: shop.id, endpoint: 'public.customers' } }))
    .data;
  await json(baseUrl, 'POST', `/table/dataQuality/${table.id}`, {
    token: sleeper,
    body: { name: 'Sleeps', functionName: 'custom_sql', params: { sql: `select pg_sleep(${SLEEP_SECONDS}) as slept` } },
  });

  const calls = [
    () => fetch(`${baseUrl}/api/v1/health`),
    () => fetch(`${baseUrl}/api/v1/users/0/10`, { headers: { 'x-access-token': otherToken } }),
  ];
  await timeCalls(calls);
  const quiet = await timeCalls(calls);

  const started = performance.now();
  let sleepEnded;
  const sleeping = json(baseUrl, 'POST', `/table/${table.id}/configure`, { token: sleeper }).then(
    () => (sleepEnded = performance.now() - started),
  );
  // The statement is under way once the rule's run has begun.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const loaded = await timeCalls(calls);
  const measuredWithin = performance.now() - started;
  await sleeping;
  if (sleepEnded !== undefined && sleepEnded < measuredWithin)
    throw new Error('the sleeping statement ended before the calls did: the figures are not of calls made during it');

  const row = (name, phase, values) =>
    `| ${name} | ${phase} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 99))} | ${ms(Math.max(...values))} |`;
  return [
    "## One company's sleeping statement, the others' calls",
    '',
    `Command: \`npm run bench\` (tests/bench/isolation.mjs, BENCH_ONLY=isolation). The server on the embedded database with its sample shop. ` +
      `Company A runs a custom data-quality rule \`select pg_sleep(${SLEEP_SECONDS})\` on its embedded source; while it sleeps, \`/health\` ` +
      `and company B's users list are called ${CALLS} times each, one after another, over loopback. Each embedded database runs in a thread ` +
      "of its own, so A's statement holds nothing else; the rule's run answered after " +
      `${(sleepEnded / 1000).toFixed(1)} s, the calls below were all made within its first ${(measuredWithin / 1000).toFixed(1)} s.`,
    '',
    '| call | while | calls | p50 | p99 | slowest |',
    '|---|---|---|---|---|---|',
    row('`GET /health`', 'nothing sleeps', quiet[0]),
    row('`GET /health`', "A's statement sleeps", loaded[0]),
    row("B's `GET /users/0/10`", 'nothing sleeps', quiet[1]),
    row("B's `GET /users/0/10`", "A's statement sleeps", loaded[1]),
  ];
}
