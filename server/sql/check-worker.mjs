// The thread that checks company SQL (check-thread.ts posts texts here, parse-check.ts checks them).
// Plain JavaScript, so that it starts the same under `node --import tsx`, vitest and node.
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

async function loadCheck() {
  // The compiled server (scripts/build-server.mjs) ships the check compiled beside this file.
  const compiled = new URL('./parse-check.mjs', import.meta.url);
  if (existsSync(compiled)) return import(compiled.href);
  // A thread does not share its parent's loaders: TypeScript is loaded with tsx's own register
  // (before the first import, since a failed import of a module is remembered).
  const { register } = await import('tsx/esm/api');
  register();
  return import('./parse-check.ts');
}

const loaded = loadCheck();

parentPort.on('message', async ({ id, dialect, text }) => {
  try {
    const { checkCompanySqlHere } = await loaded;
    parentPort.postMessage({ id, ok: true, sql: await checkCompanySqlHere(dialect, text) });
  } catch (error) {
    const refused = error?.name === 'ConnectorError';
    parentPort.postMessage({
      id,
      ok: false,
      refused,
      kind: refused ? error.kind : undefined,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
