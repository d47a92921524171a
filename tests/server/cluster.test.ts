import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, clusterCanRun, runAWorkflow, signInTo, startTestCluster, type TestCluster } from './cluster-helpers';
import { ROOT } from './processes';

/**
 * `npm run cluster` as an operator starts it (scripts/cluster.mjs): two servers that do not work
 * the queue, a worker, and HAProxy in front with health checks on the readiness probe, on a
 * PostgreSQL schema of their own. A session ended through the balancer is refused by every
 * server at once, a workflow queued through a server is run by the worker, and a server killed
 * with SIGKILL is taken out while the other goes on answering.
 */
let started: TestCluster | undefined;

beforeAll(async () => {
  if (clusterCanRun) started = await startTestCluster({ servers: 2, workers: 1 });
}, 300_000);

afterAll(async () => {
  await started?.close();
}, 120_000);

describe.runIf(clusterCanRun)('npm run cluster', () => {
  it('serves the console and the API through HAProxy, from either server', async () => {
    if (fs.existsSync(path.join(ROOT, 'dist', 'console', 'index.html'))) {
      const page = await fetch(`${started!.cluster.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
    }
    expect((await fetch(`${started!.cluster.url}/api/v1/health`)).status).toBe(200);
    const token = await signInTo(started!.cluster.url);
    for (const server of started!.cluster.servers) expect((await api(server.url, 'GET', '/user/profile', { token })).status).toBe(200);
  });

  it('ends a session everywhere at once: a logout through the balancer is refused by both servers', async () => {
    const token = await signInTo(started!.cluster.url);
    const [a, b] = started!.cluster.servers;
    expect((await api(b.url, 'GET', '/user/profile', { token })).status).toBe(200);
    expect((await api(a.url, 'PUT', '/session/logout', { token })).status).toBe(200);
    expect((await api(b.url, 'GET', '/user/profile', { token })).status).toBe(401);
    expect((await api(started!.cluster.url, 'GET', '/user/profile', { token })).status).toBe(401);
  });

  it('keeps answering when a server is killed, and takes it back once it is ready again', async () => {
    const token = await signInTo(started!.cluster.url);
    const [victim] = started!.cluster.servers;
    await victim.kill();
    // Calls that change nothing are sent to the other server, even those under way at the kill.
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(started!.cluster.url, 'GET', '/user/profile', { token })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    victim.start();
    await started!.cluster.ready(victim);
    expect((await api(victim.url, 'GET', '/user/profile', { token })).status).toBe(200);
  });

  it("runs the workflows queued through a server on the worker's process", async () => {
    const { cluster, output } = started!;
    const status = await runAWorkflow(cluster.url, await signInTo(cluster.url), 'Cluster');
    expect(status, output.slice(-30).join('\n')).toBe('succeeded');
  });
});
