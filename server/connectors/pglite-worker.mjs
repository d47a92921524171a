// One PGlite database in a worker thread of its own (pglite-host.ts starts it and speaks to it).
//
// PGlite runs each statement to its end on the thread that calls it, with no timer that could
// interrupt it. Here that thread is this one: the server's main thread only posts statements and
// awaits answers, so a slow statement stalls nobody else, and ending this thread (Worker.terminate)
// stops a statement that ran out of time, WASM and all. Plain JavaScript, so that it runs the same
// under plain node, `node --import tsx` and vitest.

import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const asText = (value) => value;

/** Leaves a value of each of these types as the text PostgreSQL wrote. */
const textParsers = (typeIds = []) => Object.fromEntries(typeIds.map((typeId) => [typeId, asText]));

/** What crosses back to the main thread of a failure: PostgreSQL's words and SQLSTATE. */
function failureOf(error) {
  if (error === null || typeof error !== 'object') return { message: String(error) };
  const { message, code, detail, hint } = error;
  return { message: String(message ?? error), code, detail, hint };
}

const { directory, textTypeIds, template, makeTemplate, buffersMb } = workerData;
let pglite;
if (makeTemplate) {
  // A new database, as initdb leaves it, for the next ones to start from (pglite-host.ts): initdb takes seconds, unpacking this a fraction.
  try {
    const fresh = await PGlite.create();
    const dump = await fresh.dumpDataDir('gzip');
    await fresh.close();
    const bytes = await dump.arrayBuffer();
    parentPort.postMessage({ template: bytes }, [bytes]);
  } catch (error) {
    parentPort.postMessage({ failed: failureOf(error) });
  }
  parentPort.close();
} else {
  try {
    const options = {
      parsers: textParsers(textTypeIds),
      ...(template ? { loadDataDir: new Blob([template]) } : {}),
      ...(buffersMb ? { postgresqlconf: [`shared_buffers = ${buffersMb}MB`] } : {}),
    };
    pglite = directory ? await PGlite.create(directory, options) : await PGlite.create(options);
  } catch (error) {
    parentPort.postMessage({ failed: failureOf(error) });
    parentPort.close();
  }
}

const operations = {
  async exec({ sql }) {
    await pglite.exec(sql);
  },
  async query({ sql, params }) {
    return (await pglite.query(sql, params)).rows;
  },
  async queryText({ sql, params, typeIds }) {
    const result = await pglite.query(sql, params, { rowMode: 'array', parsers: textParsers(typeIds) });
    return { fields: result.fields.map((field) => ({ name: field.name, typeId: field.dataTypeID, typeModifier: -1 })), rows: result.rows };
  },
  async run({ sql }) {
    const results = await pglite.exec(sql);
    const last = results[results.length - 1];
    return { command: last?.command ?? '', rowCount: last?.rowCount };
  },
  /** `sql` is a `COPY … FROM '/dev/blob'`, fed with `data`. */
  async copyFrom({ sql, data }) {
    const result = await pglite.query(sql, [], { blob: new Blob([data]) });
    return result.affectedRows ?? 0;
  },
  async inTransaction() {
    return pglite.isInTransaction();
  },
  /** One statement in a transaction that is rolled back, read-only when asked: nothing it does is kept. */
  async queryRolledBack({ sql, params, readOnly }) {
    return pglite.transaction(async (tx) => {
      if (readOnly) await tx.exec('SET TRANSACTION READ ONLY');
      const result = await tx.query(sql, params);
      await tx.rollback();
      return result.rows;
    });
  },
  /** What a script may leave on the session, undone: an open transaction, changed settings. */
  async forget() {
    if (pglite.isInTransaction()) await pglite.exec('rollback');
    await pglite.exec('reset all');
  },
  /** Cursors kept past their transaction (WITH HOLD): a read between two of its turns. */
  async holdsCursors() {
    return (await pglite.query('select exists (select 1 from pg_cursors where is_holdable) as held')).rows[0].held;
  },
  async close() {
    await pglite.exec('CHECKPOINT').catch(() => {});
    await pglite.close();
  },
};

if (pglite) {
  // Answered one at a time, in the order posted.
  let last = Promise.resolve();
  parentPort.on('message', (message) => {
    last = last.then(() => answer(message));
  });
  parentPort.postMessage({ ready: true });
}

async function answer({ id, op, args }) {
  try {
    const value = await operations[op](args);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: failureOf(error) });
  }
  if (op === 'close') parentPort.close();
}
