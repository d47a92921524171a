#!/usr/bin/env node
// npm run cluster: several servers and workers on one PostgreSQL behind HAProxy, on this machine.
//   DATABASE_URL=postgres://… npm run cluster -- [--servers N] [--workers M] [--port P] [--compiled] [--user NAME]
// --compiled runs the compiled server (npm run build:server) as the image does; --user runs every
// member as that user of this machine (as root), as the image runs as its user `node`.
// The topology of compose.yaml (docs/operations.md, "Several servers"): servers that serve the
// API and the console without working the queue (RUN_WORKER=false), workers that work it, and
// HAProxy in front, sending calls only to servers whose readiness probe answers.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_PROCESS_ENV } from './server-env.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where HAProxy is looked for when HAPROXY is not set. */
const HAPROXY_PLACES = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/bin/haproxy'];

export function findHaproxy(env = process.env) {
  if (env.HAPROXY) return fs.existsSync(env.HAPROXY) ? env.HAPROXY : null;
  const fromPath = (env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'haproxy'));
  return [...fromPath, ...HAPROXY_PLACES].find((file) => fs.existsSync(file)) ?? null;
}

/**
 * HAProxy's configuration. Health checks ask each server's readiness probe every 2 s; three
 * failures in a row (no answer within 5 s, or not 200) take it out, two successes bring it back. A call whose connection is refused or cut
 * before any answer goes to another server (`retries`, `redispatch`); only calls that change
 * nothing (GET, HEAD, OPTIONS) are sent again after a server failed while answering them, since
 * the first server may have done a write before it died.
 */
export function haproxyConfig({ host, port, servers, containerDns = false }) {
  // In containers (compose.yaml) servers are named, resolved by the engine's DNS, and may not resolve yet at start.
  const resolving = containerDns ? ' init-addr libc,none resolvers containers' : '';
  return [
    'global',
    '  maxconn 4096',
    '  log stderr format short local0 warning',
    '',
    ...(containerDns ? ['resolvers containers', '  nameserver engine 127.0.0.11:53', '  hold valid 10s', ''] : []),
    'defaults',
    '  mode http',
    '  log global',
    '  option dontlognull',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // The live event streams send a comment every 15 s; an hour bounds a stream left open.
    '  timeout tunnel 1h',
    '  timeout http-request 10s',
    // Idle kept-alive connections stay open as long as the server's own (Fastify: 72 s): closed
    // sooner, a client sending on one as it closes gets a reset instead of an answer.
    '  timeout http-keep-alive 75s',
    '  timeout queue 10s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    '',
    'frontend console',
    `  bind ${host}:${port}`,
    '  option forwardfor',
    '  http-request disable-l7-retry unless METH_GET || METH_HEAD || METH_OPTIONS',
    '  default_backend servers',
    '',
    'backend servers',
    '  balance leastconn',
    '  option httpchk GET /api/v1/ready',
    '  http-check expect status 200',
    // A server busy under load answers its probe late, not never: 5 s to answer, three misses in
    // a row to be taken out. Calls under way on a server taken out are left to end.
    '  timeout check 5s',
    `  default-server inter 2s fastinter 1s downinter 1s fall 3 rise 2${resolving}`,
    ...servers.map((server) => `  server ${server.name} ${server.address ?? `127.0.0.1:${server.port}`} check`),
    '',
  ].join('\n');
}

function get(url, timeoutMs = 2_000) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `url` answers 200; false when `alive()` turns false or the time is up. */
async function answers(url, { timeoutMs, alive }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) return false;
    if ((await get(url)) === 200) return true;
    await sleep(250);
  }
  return false;
}

/**
 * One process of the cluster, started again on `start()` after it stopped or was killed. Its
 * output is passed to `print` line by line, named; the last of it is kept for the message of a
 * failed start.
 */
class Member {
  constructor({ name, args, env, print, onExit, port = 0 }) {
    this.name = name;
    this.args = args;
    this.env = env;
    this.print = print;
    this.onExit = onExit;
    /** A server's own port (0 for the other members), and its address past the balancer. */
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null;
    this.tail = '';
    this.stopping = false;
  }

  get running() {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid() {
    return this.child?.pid;
  }

  start() {
    this.stopping = false;
    const child = spawn(this.args[0], this.args.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: this.env });
    this.child = child;
    const take = (stream) => {
      let pending = '';
      stream.on('data', (chunk) => {
        const text = chunk.toString('utf8');
        this.tail = (this.tail + text).slice(-20_000);
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) this.print(this.name, line);
      });
    };
    take(child.stdout);
    take(child.stderr);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        resolve({ code, signal });
        if (!this.stopping) this.onExit?.(this, { code, signal });
      }),
    );
    return this;
  }

  /** SIGTERM, the process's own clean stop; SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000) {
    if (!this.running) return;
    this.stopping = true;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.running && this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** SIGKILL: no clean-up of any kind, as a crash or an out-of-memory kill. */
  async kill() {
    if (!this.running) return;
    this.stopping = true;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** A user of this machine by name: its uid and gid (`id`). */
function accountOf(name) {
  const id = (flag) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) throw new ClusterFailure(`No user ${JSON.stringify(name)} on this machine`);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export class ClusterFailure extends Error {
  constructor(message, output = '') {
    super(output ? `${message}\n--- its last output ---\n${output.slice(-4_000)}` : message);
  }
}

/**
 * Starts the cluster and resolves once HAProxy answers with every server ready. `restart`: a
 * member that exits on its own is started again after a second, as compose's
 * `restart: unless-stopped` does (the soak turns it off to restart members itself).
 */
export async function startCluster(options) {
  const {
    databaseUrl,
    servers: serverCount = 2,
    workers: workerCount = 1,
    host = '127.0.0.1',
    port = 8080,
    dataDir = path.join(root, 'data', 'cluster'),
    env: extraEnv = {},
    restart = true,
    print = (name, line) => console.log(`[${name}] ${line}`),
    startTimeoutMs = 180_000,
    compiled = false,
    user,
  } = options;
  const serverPorts = options.serverPorts ?? Array.from({ length: serverCount }, (_, i) => port + 1 + i);
  if (!databaseUrl) throw new ClusterFailure('DATABASE_URL must name the PostgreSQL database the servers share.');
  const haproxy = findHaproxy();
  if (!haproxy) throw new ClusterFailure('HAProxy was not found: install it (Debian: apt-get install haproxy) or set HAPROXY to its path.');

  // One data folder for every member, as the compose file's shared volume: the secret that seals
  // the companies' settings, and the companies' files, are the same whichever server answers.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secretFile = path.join(dataDir, 'cluster.secret');
  if (!extraEnv.APP_SECRET && !process.env.APP_SECRET && !fs.existsSync(secretFile)) {
    fs.writeFileSync(secretFile, crypto.randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  const appSecret = extraEnv.APP_SECRET ?? process.env.APP_SECRET ?? fs.readFileSync(secretFile, 'utf8').trim();
  const baseEnv = {
    // The sample connections are embedded databases, which one process at a time may open (docs/operations.md).
    BOOTSTRAP_SAMPLE_DATA: 'false',
    // The image's environment (Dockerfile ENV).
    ...SERVER_PROCESS_ENV,
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    APP_SECRET: appSecret,
    HOST: '127.0.0.1',
    ...extraEnv,
  };

  let closing = false;
  const members = [];
  const onExit = (member, { code, signal }) => {
    if (closing) return;
    print('cluster', `${member.name} exited (${signal ?? `code ${code}`})${restart ? ': starting it again in 1 s' : ''}`);
    if (restart) setTimeout(() => !closing && !member.running && member.start(), 1_000);
  };
  // The image's commands: the compiled server and worker (npm run build:server), as an unprivileged user.
  const account = user ? accountOf(user) : undefined;
  if (account) fs.chownSync(dataDir, account.uid, account.gid);
  const asUser = (args) =>
    account ? ['setpriv', `--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups', '--', ...args] : args;
  const node = (script) =>
    asUser(
      compiled ? [process.execPath, `dist/server/${path.basename(script, '.ts')}.mjs`] : [process.execPath, '--import', 'tsx', script],
    );
  if (compiled && !fs.existsSync(path.join(root, 'dist', 'server', 'index.mjs'))) {
    throw new ClusterFailure('The compiled server is missing: run npm run build:server first.');
  }
  const serverMembers = Array.from({ length: serverCount }, (_, i) => {
    const memberPort = serverPorts[i];
    return new Member({
      name: `server-${i + 1}`,
      args: node('server/index.ts'),
      env: { ...baseEnv, PORT: String(memberPort), RUN_WORKER: 'false' },
      print,
      onExit,
      port: memberPort,
    });
  });
  const workerMembers = Array.from(
    { length: workerCount },
    (_, i) => new Member({ name: `worker-${i + 1}`, args: node('server/worker.ts'), env: baseEnv, print, onExit }),
  );
  const configFile = path.join(dataDir, 'haproxy.cfg');
  fs.writeFileSync(configFile, haproxyConfig({ host, port, servers: serverMembers }), { mode: 0o600 });
  const balancer = new Member({ name: 'haproxy', args: [haproxy, '-db', '-f', configFile], env: process.env, print, onExit });

  const stop = async () => {
    closing = true;
    await balancer.stop(5_000);
    await Promise.all(serverMembers.map((member) => member.stop()));
    await Promise.all(workerMembers.map((member) => member.stop()));
  };
  const ready = async (member) => {
    if (await answers(`${member.url}/api/v1/ready`, { timeoutMs: startTimeoutMs, alive: () => member.running })) return;
    throw new ClusterFailure(`${member.name} did not become ready`, member.tail);
  };

  try {
    // The first server migrates the database and makes the first company; the others then start
    // together (they would wait for the migrations' lock anyway), and the workers once the queue's tables exist.
    members.push(serverMembers[0].start());
    await ready(serverMembers[0]);
    for (const member of serverMembers.slice(1)) members.push(member.start());
    for (const member of workerMembers) members.push(member.start());
    await Promise.all(serverMembers.slice(1).map(ready));
    members.push(balancer.start());
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    if (!(await answers(`${url}/api/v1/ready`, { timeoutMs: 30_000, alive: () => balancer.running }))) {
      throw new ClusterFailure('HAProxy did not answer', balancer.tail);
    }
    for (const member of workerMembers) if (!member.running) throw new ClusterFailure(`${member.name} stopped`, member.tail);
    return { url, servers: serverMembers, workers: workerMembers, balancer, configFile, stop, ready };
  } catch (error) {
    await stop();
    throw error;
  }
}

function parseArguments(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--compiled') {
      options.compiled = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (flag === '--user') {
      if (!value || value.startsWith('--')) throw new ClusterFailure('--user needs the name of a user of this machine');
      options.user = value;
      continue;
    }
    const number = Number(value);
    if (!['--servers', '--workers', '--port'].includes(flag))
      throw new ClusterFailure(`Unknown option ${flag}: use --servers N, --workers M, --port P, --compiled, --user NAME`);
    const least = flag === '--workers' ? 0 : 1;
    if (!Number.isInteger(number) || number < least || number > (flag === '--port' ? 65_000 : 32)) {
      throw new ClusterFailure(
        `${flag} must be a whole number from ${least} to ${flag === '--port' ? 65_000 : 32}, not ${JSON.stringify(value)}`,
      );
    }
    options[flag.slice(2)] = number;
  }
  return options;
}

async function main() {
  const options = {
    servers: Number(process.env.CLUSTER_SERVERS || 2),
    workers: Number(process.env.CLUSTER_WORKERS || 1),
    port: Number(process.env.PORT || 8080),
    host: process.env.HOST || '127.0.0.1',
    ...parseArguments(process.argv.slice(2)),
    databaseUrl: process.env.DATABASE_URL,
  };
  if (options.compiled) {
    console.log('[cluster] compiling the server (npm run build:server)');
    const compiledBuild = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
    if (compiledBuild.status !== 0) process.exit(compiledBuild.status ?? 1);
  }
  if (!fs.existsSync(path.join(root, 'dist', 'console', 'index.html'))) {
    console.log('[cluster] building the console (npm run build)');
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  console.log(`[cluster] ${options.servers} server(s), ${options.workers} worker(s) and HAProxy on ${options.host}:${options.port}`);
  const cluster = await startCluster(options);
  console.log(`[cluster] ready: ${cluster.url} (servers on ports ${cluster.servers.map((s) => s.port).join(', ')}; Ctrl-C stops them all)`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(`[cluster] ${signal}: stopping HAProxy, then the servers and the workers`);
      cluster.stop().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[cluster] ${error.message}`);
    process.exit(1);
  });
}
