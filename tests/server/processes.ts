import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The repository's root, where the server's scripts run from. */
export const ROOT = path.resolve(__dirname, '../..');

/** A port nothing listens on now, for a server process a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One of the server's command-line scripts (server/cli/<name>.ts), run to its end as an operator runs it. */
export function runScript(name: string, args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/cli/${name}.ts`, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
