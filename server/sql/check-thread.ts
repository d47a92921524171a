import { pathToFileURL } from 'node:url';
import { serverFilePath } from '../server-files';
import { Worker } from 'node:worker_threads';
import { ConnectorError, type Dialect } from '../connectors/types';

/**
 * Company SQL is checked in a thread of its own (check-worker.mjs runs parse-check.ts): parsing,
 * walking and re-printing take a few milliseconds for a usual query, but a text of thousands of
 * columns or a parser's slow path can take a good part of a second, and the server's other
 * requests — other companies' — must not wait for it. One thread serves every check, in turn; a
 * check that takes longer than CHECK_TIME_LIMIT_MS is refused and its thread ended, and the next
 * check starts a new one.
 */

export const CHECK_TIME_LIMIT_MS = 10_000;

interface Waiting {
  dialect: Dialect;
  text: string;
  resolve(sql: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Answer {
  id: number;
  ok: boolean;
  sql?: string;
  refused?: boolean;
  kind?: ConnectorError['kind'];
  message?: string;
}

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, Waiting>();

function settle(id: number, outcome: { sql: string } | { error: Error }): void {
  const entry = waiting.get(id);
  if (!entry) return;
  waiting.delete(id);
  clearTimeout(entry.timer);
  if ('sql' in outcome) entry.resolve(outcome.sql);
  else entry.reject(outcome.error);
  // An idle thread does not keep the process alive.
  if (waiting.size === 0) worker?.unref();
}

function stopThread(reason: string): void {
  const ended = worker;
  worker = undefined;
  void ended?.terminate();
  for (const id of [...waiting.keys()]) settle(id, { error: new ConnectorError(reason, 'failed') });
}

function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(pathToFileURL(serverFilePath('sql/check-worker.mjs')));
  started.on('message', (answer: Answer) => {
    if (answer.ok) settle(answer.id, { sql: answer.sql! });
    // A refusal of the check keeps its kind; anything else is this server's failure, not the query's.
    else if (answer.refused)
      settle(answer.id, { error: new ConnectorError(answer.message ?? 'The query was refused', answer.kind ?? 'invalid') });
    else settle(answer.id, { error: new Error(`The query could not be checked: ${answer.message}`) });
  });
  started.on('error', (error) => {
    if (worker === started) stopThread(`The query could not be checked: ${error.message}`);
  });
  started.on('exit', () => {
    if (worker === started) stopThread('The query could not be checked: the checking thread stopped; try again');
  });
  worker = started;
  return started;
}

export function checkInItsThread(dialect: Dialect, text: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    nextId += 1;
    const id = nextId;
    const timer = setTimeout(() => {
      settle(id, {
        error: new ConnectorError(`This query took longer than ${CHECK_TIME_LIMIT_MS / 1000} s to check; write it more simply`, 'invalid'),
      });
      // The thread is stuck on it: the checks behind it start again on a new one.
      const stuck = worker;
      worker = undefined;
      void stuck?.terminate();
      for (const [waitingId] of waiting) {
        const entry = waiting.get(waitingId)!;
        waiting.delete(waitingId);
        clearTimeout(entry.timer);
        void checkInItsThread(entry.dialect, entry.text).then(entry.resolve, entry.reject);
      }
    }, CHECK_TIME_LIMIT_MS);
    waiting.set(id, { dialect, text, resolve, reject, timer });
    const target = thread();
    target.ref();
    target.postMessage({ id, dialect, text });
  });
}
