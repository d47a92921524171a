import crypto from 'node:crypto';
import os from 'node:os';
import { createSecrets } from '../../../server/auth/secrets';
import { openDatabase } from '../../../server/db/client';
import { createLocalRunner } from '../../../server/jobs/local-runner';
import type { TaskExecutor } from '../../../server/jobs/types';
import { createMailer } from '../../../server/mail/mailer';
import { TEST_HTTP } from '../connectors/test-context';

/**
 * A runner in a process of its own, on the PostgreSQL database and schema of DATABASE_URL and
 * DATABASE_SCHEMA, for the crash tests to kill. A task whose id starts with `hang-` logs a line
 * and then works until it is stopped; any other task succeeds at once. It prints its worker id
 * once it works the queue.
 */

const databaseUrl = process.env.DATABASE_URL;
const schema = process.env.DATABASE_SCHEMA;
if (!databaseUrl || !schema) throw new Error('runner-child needs DATABASE_URL and DATABASE_SCHEMA');

const task: TaskExecutor = async (definition, context) => {
  if (!definition.id.startsWith('hang-')) return {};
  await context.log(`Working in process ${process.pid}`);
  await new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
  return {};
};

const database = await openDatabase({ databaseUrl, schema });
const runner = createLocalRunner({
  database,
  secrets: createSecrets(crypto.randomBytes(32).toString('base64url')),
  mailer: createMailer(database.db, { from: 'DataOps Console <no-reply@dataops.test>' }),
  executors: { copy: task, sql: task, quality: task, notify: task },
  config: { publicUrl: undefined, port: 8080, dataDir: os.tmpdir() },
  slack: { http: TEST_HTTP },
  limits: JSON.parse(process.env.RUNNER_LIMITS ?? '{}'),
  log: (message) => process.stderr.write(`${message}\n`),
});
await runner.start();
process.stdout.write(`ready ${runner.workerId}\n`);
