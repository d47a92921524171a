import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { haproxyConfig } from '../../scripts/cluster.mjs';
import { SERVER_PROCESS_ENV } from '../../scripts/server-env.mjs';
import { ROOT } from './processes';

/**
 * The image and the compose file describe the deployment `npm run cluster` runs here (no
 * container engine runs on this machine): the same compiled server and worker, the same user,
 * HAProxy with the same configuration, and no secret written into either file.
 */
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const dockerfile = read('Dockerfile');

describe('the image', () => {
  it('runs the compiled server as the unprivileged user, with its readiness as health check', () => {
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(/^\nFROM node:22-/);
    expect(finalStage).toMatch(/\nUSER node\n/);
    expect(finalStage).toMatch(/\nCMD \["node", "dist\/server\/index\.mjs"\]/);
    expect(finalStage).toMatch(/HEALTHCHECK[\s\S]*\/api\/v1\/ready/);
    expect(finalStage).toMatch(/VOLUME \["\/data"\]/);
  });

  it("starts the server and the worker with the processes' environment (scripts/server-env.mjs)", () => {
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const env = /\nENV ((?:[^\n]*\\\n)*[^\n]*)/.exec(finalStage)![1];
    const entries = Object.entries(SERVER_PROCESS_ENV);
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, value] of entries) expect(env).toMatch(new RegExp(`(^|\\s)${name}=${value}(\\s|$)`));
  });

  it('holds no secret', () => {
    expect(dockerfile).not.toMatch(/APP_SECRET=|PASSWORD=|SMTP_URL=|DATABASE_URL=/);
  });
});

describe('npm start', () => {
  const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
  const launch = start.split('&&').at(-1)!.trim();
  /** The environment npm start's last command gives the server, read by putting printenv in node's place. */
  const startedWith = (name: string, env: Record<string, string>) => {
    expect(launch).toMatch(/ node dist\/server\/index\.mjs$/);
    const command = launch.replace(/ node dist\/server\/index\.mjs$/, ` printenv ${name}`);
    const { PATH } = process.env;
    return execFileSync('sh', ['-c', command], { env: { PATH, ...env }, encoding: 'utf8' }).trim();
  };

  it("starts the compiled server with the processes' environment, as the image does", () => {
    const entries = Object.entries(SERVER_PROCESS_ENV);
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, value] of entries) expect(startedWith(name, {})).toBe(value);
  });

  it("keeps the operator's own value", () => {
    for (const name of Object.keys(SERVER_PROCESS_ENV)) expect(startedWith(name, { [name]: '4194304' })).toBe('4194304');
  });
});

describe('the compose file', () => {
  it('runs two servers that leave the queue to a worker, on PostgreSQL, behind HAProxy', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['haproxy', 'postgres', 'server-1', 'server-2', 'worker']);
    for (const name of ['server-1', 'server-2']) {
      expect(services[name].environment?.RUN_WORKER).toBe('false');
      expect(services[name].environment?.DATABASE_URL).toMatch(/^postgres:\/\/\$\{POSTGRES_USER\}:\$\{POSTGRES_PASSWORD\}@postgres:5432\//);
    }
    expect(services.worker.command).toEqual(['node', 'dist/server/worker.mjs']);
    expect(services['server-2'].depends_on?.['server-1']?.condition).toBe('service_healthy');
  });

  it('takes its secrets from an env file that is not kept in version control', () => {
    for (const name of ['server-1', 'server-2', 'worker']) expect(compose.services[name].env_file).toBe('deploy/compose.env');
    expect(read('compose.yaml')).not.toMatch(/APP_SECRET:|PASSWORD: [^$]/);
    expect(read('.gitignore')).toMatch(/^deploy\/compose\.env$/m);
    const example = read('deploy/compose.env.example');
    expect(example).toMatch(/^APP_SECRET=$/m);
    expect(example).toMatch(/^POSTGRES_PASSWORD=$/m);
  });

  it("gives HAProxy the configuration npm run cluster runs, for the compose file's servers", () => {
    const written = read('deploy/haproxy.cfg')
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
    const servers = ['server-1', 'server-2'].map((name) => ({ name, address: `${name}:8080` }));
    expect(written).toBe(haproxyConfig({ host: '*', port: 8080, servers, containerDns: true }));
    expect(compose.services.haproxy.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });
});
