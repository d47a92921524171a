#!/usr/bin/env node
// Development: the API server (restarted when server code changes) and Vite with hot reload,
// which proxies /api to the server. Open the URL Vite prints.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const apiPort = process.env.API_PORT || process.env.PORT || '8080';
const children = [];

function run(name, command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} stopped (${signal ?? code}); stopping the rest`);
      stop();
    }
  });
  children.push(child);
}

let stopping = false;
function stop() {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

run('API server', process.execPath, ['--watch-path=server', '--watch-path=common', '--import', 'tsx', 'server/index.ts'], {
  PORT: apiPort,
});
run('Vite', process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js')], { API_PORT: apiPort });
