import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { SERVER_PROCESS_ENV } from '../../scripts/server-env.mjs';
import { clusterCanRun, runAWorkflow, signInTo, startTestCluster, type TestCluster } from './cluster-helpers';

/**
 * What the image runs (Dockerfile, compose.yaml), run here where no container engine runs: the
 * server and the worker compiled to JavaScript by `npm run build:server`, started with plain
 * `node` (no tsx), as an unprivileged user when the tests run as root (the image's user is
 * `node`; here `nobody`), behind HAProxy.
 */
const asRoot = process.getuid?.() === 0;
let started: TestCluster | undefined;

beforeAll(async () => {
  if (!clusterCanRun) return;
  await buildServer({ quiet: true });
  started = await startTestCluster({ servers: 1, workers: 1, compiled: true, user: asRoot ? 'nobody' : undefined });
}, 300_000);

afterAll(async () => {
  await started?.close();
}, 120_000);

/** The command line, the real user and the environment of a running process. */
function processOf(pid: number): { command: string[]; uid: number; env: string[] } {
  const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return { command, uid, env };
}

describe.runIf(clusterCanRun)('the compiled server, as the image runs it', () => {
  it('runs the compiled server and worker with node alone, as the unprivileged user', () => {
    const { cluster } = started!;
    const server = processOf(cluster.servers[0].pid!);
    const worker = processOf(cluster.workers[0].pid!);
    expect(server.command.slice(1)).toEqual(['dist/server/index.mjs']);
    expect(worker.command.slice(1)).toEqual(['dist/server/worker.mjs']);
    expect(server.command.join(' ')).not.toMatch(/tsx/);
    // The image's environment (Dockerfile ENV), which glibc reads at the process's start.
    for (const [name, value] of Object.entries(SERVER_PROCESS_ENV)) {
      expect(server.env).toContain(`${name}=${value}`);
      expect(worker.env).toContain(`${name}=${value}`);
    }
    if (asRoot) {
      expect(server.uid).not.toBe(0);
      expect(worker.uid).not.toBe(0);
    }
  });

  it('serves the API through HAProxy, and runs workflows on the worker', async () => {
    const { cluster, output } = started!;
    const token = await signInTo(cluster.url);
    expect(await runAWorkflow(cluster.url, token, 'Compiled'), output.slice(-30).join('\n')).toBe('succeeded');
  });
});
