import { spawn, spawnSync } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type { ReceivedRequest } from './local-server';

export const hasGitHttpBackend = spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).status === 0;

/**
 * git's own smart-HTTP server (git http-backend, run as CGI per request), behind basic auth: the
 * repositories under `projectRoot` at their paths (`/sql.git`, `/team/analytics.git`).
 */
export function gitHttpBackend(projectRoot: string, user: string, password: string, home: string) {
  return (request: ReceivedRequest, response: ServerResponse): Promise<void> => {
    if (request.headers.authorization !== `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return Promise.resolve();
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: request.path,
        REQUEST_METHOD: request.method,
        QUERY_STRING: request.url.split('?')[1] ?? '',
        CONTENT_TYPE: String(request.headers['content-type'] ?? ''),
        CONTENT_LENGTH: String(request.body.length),
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    // git http-backend may exit without reading its input (a GET has none): its answer still comes on stdout.
    child.stdin.on('error', () => {});
    child.stdin.end(request.body);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    return new Promise((resolve) => {
      child.on('close', () => {
        const output = Buffer.concat(chunks);
        const split = output.indexOf('\r\n\r\n');
        const headerLines = output.subarray(0, split).toString().split('\r\n');
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of headerLines) {
          const [name, ...rest] = line.split(':');
          if (name!.toLowerCase() === 'status') status = Number(rest.join(':').trim().split(' ')[0]);
          else headers[name!.toLowerCase()] = rest.join(':').trim();
        }
        response.writeHead(status, headers).end(output.subarray(split + 4));
        resolve();
      });
    });
  };
}
