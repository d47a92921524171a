import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real server as a child process (`node --import tsx server/index.ts`), which the soak runs
 * can stop cleanly, kill with SIGKILL and start again on the same database, and a light HTTP
 * client for it that records every call.
 */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const ADMIN = { email: 'admin@soak.local', password: 'Soak-admin-pass-1', companyHostname: 'soak' };

/** Starts the server; `env` adds to (and overrides) the soak defaults. Its output is kept for the messages of a failed start. */
export function startServer({ port, env = {} }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // The fault runs drive one admin session from 40 clients, far past any person's rate.
      RATE_LIMIT_SESSION_PER_MINUTE: '0',
      RATE_LIMIT_API_KEY_PER_MINUTE: '0',
      BOOTSTRAP_COMPANY_HOSTNAME: ADMIN.companyHostname,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      BOOTSTRAP_SAMPLE_DATA: 'false',
      ...env,
    },
  });
  let output = '';
  const keep = (chunk) => {
    output += chunk.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    pid: child.pid,
    exited,
    output: () => output,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    /** Resolves once /health answers 200; rejects with the server's output if it exits first or takes longer than `timeoutMs`. */
    async ready(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new StartFailure(`the server exited (${child.exitCode ?? child.signalCode}) before answering`, output);
        }
        try {
          const res = await request(`${baseUrl}/api/v1/health`, { timeoutMs: 2_000 });
          if (res.status === 200) return;
        } catch {
          /* not listening yet */
        }
        await sleep(200);
      }
      throw new StartFailure(`the server did not answer within ${timeoutMs / 1000} s`, output);
    },
    /** SIGTERM: the server's own clean stop. */
    async stop() {
      if (!this.running) return exited;
      child.kill('SIGTERM');
      return exited;
    },
    /** SIGKILL: no clean-up of any kind. */
    async kill() {
      if (!this.running) return exited;
      child.kill('SIGKILL');
      return exited;
    },
  };
}

export class StartFailure extends Error {
  constructor(message, output) {
    super(message);
    this.output = output;
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One agent for every simulated user: kept-alive sockets, enough of them for every user to have one. */
export function keepAliveAgent(users) {
  return new http.Agent({ keepAlive: true, maxSockets: users + 16, maxFreeSockets: users + 16, keepAliveMsecs: 1_000 });
}

const defaultAgent = keepAliveAgent(16);

/**
 * One HTTP call. Resolves `{ status, body, text }` for any answer; rejects on a network error or
 * when no answer came within `timeoutMs` (err.code 'SOAK_TIMEOUT'): a call is never left waiting.
 */
export function request(url, { method = 'GET', headers = {}, body, agent = defaultAgent, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const allHeaders = { ...headers };
    if (payload !== undefined) {
      allHeaders['content-length'] = Buffer.byteLength(payload);
      if (!allHeaders['content-type']) allHeaders['content-type'] = 'application/json';
    }
    const req = http.request(url, { method, agent, headers: allHeaders }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode, body: parsed, text });
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => {
      const err = new Error(`no answer within ${timeoutMs / 1000} s`);
      err.code = 'SOAK_TIMEOUT';
      req.destroy(err);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A signed-in client: `call(method, path, body)` on /api/v1 with the access token. */
export async function signIn(baseUrl, account, { agent, timeoutMs } = {}) {
  const res = await request(`${baseUrl}/api/v1/signin`, { method: 'POST', body: account, agent, timeoutMs });
  if (res.status !== 200)
    throw new Error(`sign-in of ${account.email} answered ${res.status}: ${res.body?.message ?? res.text.slice(0, 200)}`);
  return res.body.user.accessToken;
}

export function apiClient(baseUrl, token, { agent, timeoutMs } = {}) {
  return (method, path, body) =>
    request(`${baseUrl}/api/v1${path}`, { method, headers: { 'x-access-token': token }, body, agent, timeoutMs });
}

/** Calls `check` until it returns a truthy value, every `everyMs`, for at most `timeoutMs`; answers that value or undefined. */
export async function waitUntil(check, { timeoutMs, everyMs = 500 }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() >= deadline) return undefined;
    await sleep(everyMs);
  }
}

/**
 * A workflow (the body of POST /workflow) copying `rows` rows into public.soak_target that come
 * slowly, each after a short sleep (some 0.05 s a thousand): a run stays under way long enough for
 * a kill to land in it.
 */
export function slowCopyWorkflow(name, pairId, rows) {
  return {
    name,
    pairId,
    tasks: [
      {
        id: 'copy',
        name: 'Copy slowly',
        type: 'copy',
        from: { query: `select g as n, md5(g::text || pg_sleep(0.0002)::text) as label from generate_series(1, ${rows}) g` },
        to: { table: 'public.soak_target', mode: 'replace' },
        batchSize: 1000,
      },
    ],
  };
}
