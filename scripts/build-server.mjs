#!/usr/bin/env node
// npm run build:server: the server compiled to JavaScript in dist/server, run with plain `node`
// (no tsx in production): dist/server/index.mjs (the server), worker.mjs (npm run worker), and
// backup.mjs, restore.mjs, plan.mjs (the operator's commands). Packages stay in node_modules.
// The files the server reads by path (server-files.ts) are copied to the same places under
// dist/server as under server/: the migrations and the two worker threads' scripts. meta.json is
// esbuild's account of the output: which file imports what, and how (at load or on demand).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'server');

export async function buildServer({ outdir = out, quiet = false } = {}) {
  fs.rmSync(outdir, { recursive: true, force: true });
  const entries = {
    index: 'server/index.ts',
    worker: 'server/worker.ts',
    backup: 'server/cli/backup.ts',
    restore: 'server/cli/restore.ts',
    plan: 'server/cli/plan.ts',
  };
  const compiled = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: quiet ? 'warning' : 'info',
  });
  fs.writeFileSync(path.join(outdir, 'meta.json'), JSON.stringify(compiled.metafile));
  // The SQL check's thread loads it compiled when it is there (server/sql/check-worker.mjs).
  await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'server/sql/parse-check.ts')],
    outfile: path.join(outdir, 'sql', 'parse-check.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    logLevel: quiet ? 'warning' : 'info',
  });
  const copies = [
    ['server/db/migrations', 'db/migrations'],
    ['server/connectors/pglite-worker.mjs', 'connectors/pglite-worker.mjs'],
    ['server/sql/check-worker.mjs', 'sql/check-worker.mjs'],
  ];
  for (const [from, to] of copies) fs.cpSync(path.join(root, from), path.join(outdir, to), { recursive: true });
  return outdir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer().then(
    (dir) => console.log(`The server is compiled in ${path.relative(root, dir)}: node ${path.relative(root, dir)}/index.mjs`),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
