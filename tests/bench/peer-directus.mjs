import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * Side by side with Directus on the same PostgreSQL: the four list cases of the peer harness
 * (../shared/bench/peer-directus, set up with its setup.sh), each measured on Directus and then on
 * this server with the same driver (autocannon from the harness, 10 connections, 3 s of warm-up
 * discarded, 15 s measured, every latency kept). Both hold 1,000,000 audit rows, 600,000 of them
 * in the tenant measured.
 */
const PEER_DIR = process.env.PEER_DIR ?? '/tmp/peer';
const DIRECTUS_URL = process.env.DIRECTUS_URL ?? 'http://127.0.0.1:8055';
const DIRECTUS_ADMIN = {
  email: process.env.ADMIN_EMAIL ?? 'admin@example.com',
  password: process.env.ADMIN_PASSWORD ?? 'peer-bench-Passw0rd',
};
const CONNECTIONS = Number(process.env.PEER_CONNECTIONS ?? 10);
const DURATION = Number(process.env.PEER_DURATION ?? 15);
const WARMUP = Number(process.env.PEER_WARMUP ?? 3);
/** This server's throughput over Directus's, in every case. */
const TARGET_RATIO = 3;

const TENANT_ROWS = 600_000;
const OTHER_ROWS = 400_000;

const filter = 'filter%5Bcompany_id%5D%5B_eq%5D=1';
const CASES = [
  {
    name: 'page 1 with totals',
    directus: `/items/audit_events?limit=10&offset=0&sort=-created_at&${filter}&meta=filter_count`,
    product: { method: 'GET', path: '/api/v1/system/audits/0/10' },
  },
  {
    name: 'search',
    directus: `/items/audit_events?limit=10&offset=0&sort=-created_at&${filter}&filter%5Buser_email%5D%5B_contains%5D=user42%40&meta=filter_count`,
    product: { method: 'POST', path: '/api/v1/system/audits/filter/0/10', body: { search: 'user42@' } },
  },
  {
    name: 'no totals',
    directus: `/items/audit_events?limit=10&offset=0&sort=-created_at&${filter}`,
    // The server has no call without a total: its page 1 keeps its capped count (docs/api.md).
    product: { method: 'GET', path: '/api/v1/system/audits/0/10' },
  },
  {
    name: 'page at offset 500,000',
    directus: `/items/audit_events?limit=10&offset=500000&sort=-created_at&${filter}&meta=filter_count`,
    product: { method: 'GET', path: '/api/v1/system/audits/500000/10' },
  },
];

/** The tenant's 600,000 entries and another company's 400,000; user42@ is in ~120 of the tenant's, as in the peer's data. */
export async function seedPeerData(exec, query, hostname) {
  const [company] = await query(`select id from companies where hostname = '${hostname}'`);
  await exec(`insert into companies (name, hostname) values ('Peer other', 'peer-other') on conflict do nothing`);
  const [other] = await query(`select id from companies where hostname = 'peer-other'`);
  for (const [companyId, rows] of [
    [company.id, TENANT_ROWS],
    [other.id, OTHER_ROWS],
  ]) {
    for (let start = 1; start <= rows; start += 200_000) {
      const end = Math.min(rows, start + 199_999);
      await exec(`
        insert into system_audits (company_id, model, operation, record_id, changes, created_at)
        select '${companyId}'::uuid, (array['user','role','workspace','apikey','session','company'])[1 + (g % 6)],
               (array['create','update','delete','activate','deactivate'])[1 + (g % 5)], 'record-' || g,
               jsonb_build_object('email', 'user' || (g % 4999) || '@example.com'),
               timestamptz '2026-01-01' + (g * 30 || ' seconds')::interval
        from generate_series(${start}, ${end}) g`);
    }
  }
  await exec('vacuum analyze system_audits');
}

function autocannonFrom() {
  const tools = path.join(PEER_DIR, 'tools');
  if (!fs.existsSync(path.join(tools, 'package.json'))) return null;
  return createRequire(path.join(tools, 'package.json'))('autocannon');
}

/** One case on one system: req/s of 2xx answers and exact latency percentiles. */
async function measure(autocannon, { url, method = 'GET', headers, body }) {
  const options = { url, method, headers, connections: CONNECTIONS, body: body ? JSON.stringify(body) : undefined };
  if (body) options.headers = { ...headers, 'content-type': 'application/json' };
  const check = await fetch(url, { method, headers: options.headers, body: options.body });
  if (check.status !== 200) throw new Error(`${method} ${url} answered ${check.status}: ${(await check.text()).slice(0, 300)}`);
  const run = (seconds, onLatency) =>
    new Promise((resolve, reject) => {
      const instance = autocannon({ ...options, duration: seconds }, (error, result) => (error ? reject(error) : resolve(result)));
      if (onLatency) instance.on('response', (_client, _status, _bytes, ms) => onLatency(ms));
    });
  if (WARMUP > 0) await run(WARMUP);
  const latencies = [];
  const result = await run(DURATION, (ms) => latencies.push(ms));
  latencies.sort((a, b) => a - b);
  const pct = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] : NaN);
  return {
    rate: result['2xx'] / result.duration,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    errors: result.errors + result.non2xx,
  };
}

async function directusToken() {
  const res = await fetch(`${DIRECTUS_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DIRECTUS_ADMIN),
  });
  if (!res.ok) throw new Error(`Directus sign-in answered ${res.status}`);
  return (await res.json()).data.access_token;
}

const ms = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/**
 * Measures both sides, case by case. `product` is this server, seeded and running:
 * `{ baseUrl, token }`.
 */
export async function measurePeer(product) {
  const heading = ['## Side by side with Directus', ''];
  const command =
    'Command: `bash ../shared/bench/peer-directus/setup.sh`, then `BENCH_ONLY=peer npm run bench` (tests/bench/peer-directus.mjs). ' +
    'Directus 12.4 and this server on the same PostgreSQL, each with 1,000,000 audit rows of which 600,000 belong to the tenant measured; ' +
    `the same driver for both (autocannon, ${CONNECTIONS} connections, ${WARMUP} s of warm-up discarded, ${DURATION} s measured, every latency kept), ` +
    `one case on Directus and then on this server. Target: at least ${TARGET_RATIO}× Directus's throughput in every case.`;
  const autocannon = autocannonFrom();
  let token;
  try {
    token = autocannon ? await directusToken() : null;
  } catch {
    token = null;
  }
  if (!autocannon || !token) {
    return [...heading, command, '', `Not measured: no Directus peer answered at ${DIRECTUS_URL} (run the harness's setup.sh first).`];
  }
  const rows = [];
  for (const peerCase of CASES) {
    const directus = await measure(autocannon, { url: DIRECTUS_URL + peerCase.directus, headers: { authorization: `Bearer ${token}` } });
    const ours = await measure(autocannon, {
      url: product.baseUrl + peerCase.product.path,
      method: peerCase.product.method,
      body: peerCase.product.body,
      headers: { 'x-access-token': product.token },
    });
    const ratio = ours.rate / directus.rate;
    const verdict = ratio >= TARGET_RATIO ? 'met' : `**missed** (${TARGET_RATIO}×)`;
    rows.push(
      `| ${peerCase.name} | ${directus.rate.toFixed(1)}/s (${ms(directus.p50)} / ${ms(directus.p95)} / ${ms(directus.p99)} ms) | ` +
        `${ours.rate.toFixed(1)}/s (${ms(ours.p50)} / ${ms(ours.p95)} / ${ms(ours.p99)} ms) | ${ratio.toFixed(1)}× | ` +
        `${directus.errors} / ${ours.errors} | ${verdict} |`,
    );
    console.log(rows.at(-1));
  }
  return [
    ...heading,
    command,
    '',
    '| case | Directus (p50 / p95 / p99) | this server (p50 / p95 / p99) | ratio | errors | target |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    "Directus counts the filter's rows exactly on every call; this server counts up to 10,000 and keeps the count per filter " +
      'until a table it read is written, and it has no call without a total, so its "no totals" row is its page 1 again. ' +
      "The search is the audit list's own (the entries' text and the users whose email holds it); Directus's is a `like` on one column.",
  ];
}
