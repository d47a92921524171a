import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../scripts/build-server.mjs';

/**
 * What the compiled server loads when it starts: the files and packages its entry imports, and
 * theirs, statically. The packages that only some requests use (a report's PDF, a MySQL or git
 * connection, Stripe, mail through SMTP, a two-factor QR code, an outbound HTTP call, a Parquet
 * or CSV file) are loaded at their first use, so an idle server does not hold their code
 * (docs/benchmarks.md, "Memory").
 */
const ON_DEMAND = [
  'pdfkit',
  'fontkit',
  'mysql2',
  'mysql2/promise',
  'stripe',
  'isomorphic-git',
  'nodemailer',
  'qrcode',
  'undici',
  'hyparquet',
  'csv-parse',
  'csv-parse/sync',
];

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
}

let outdir: string;
let meta: Metafile;

beforeAll(async () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-build-'));
  await buildServer({ outdir, quiet: true });
  meta = JSON.parse(fs.readFileSync(path.join(outdir, 'meta.json'), 'utf8')) as Metafile;
}, 120_000);

afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** The packages an output file loads with it, following its static imports through the chunks. */
function loadedWith(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of meta.outputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue;
      if (imported.external) packages.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(entry);
  return packages;
}

function outputNamed(name: string): string {
  const found = Object.keys(meta.outputs).find((file) => path.basename(file) === name);
  if (!found) throw new Error(`no ${name} in the build`);
  return found;
}

describe('the compiled server at its start', () => {
  it('loads the packages every request needs, and none of those only some requests use', () => {
    const loaded = loadedWith(outputNamed('index.mjs'));
    // Followed to the end: the database, the web server and the queue come with the start.
    expect([...loaded]).toEqual(expect.arrayContaining(['fastify', '@electric-sql/pglite', 'pg-boss', 'drizzle-orm']));
    expect(ON_DEMAND.filter((pkg) => loaded.has(pkg))).toEqual([]);
  });

  it('still has each package loaded on demand, where it is needed', () => {
    const onDemand = new Set(
      Object.values(meta.outputs).flatMap((output) =>
        output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path),
      ),
    );
    expect(ON_DEMAND.filter((pkg) => !onDemand.has(pkg))).toEqual([]);
  });
});
