/**
 * A PGlite database that lives in a worker thread of its own (pglite-worker.mjs), for the
 * embedded databases (embedded.ts) and the files loaded for SQL (tabular/).
 *
 * PGlite runs a statement to its end on the thread that calls it: on the server's main thread
 * one company's `pg_sleep` or runaway join held every request of every company. In a worker the
 * main thread only posts statements and awaits answers, and a statement that outlives its time
 * limit is stopped by ending the thread (`Worker.terminate` stops WASM mid-instruction). The
 * database is then opened again by the next piece of work: one on disk comes back, through
 * PostgreSQL's own recovery, as of its last commit; one in memory comes back empty.
 *
 * Work takes turns, as on one connection: `turn()` queues a piece of work (its BEGIN … COMMIT
 * included) behind the last. `limited()` bounds work that takes one or more turns: when its time
 * runs out (or its signal aborts) the caller is answered at once, a turn of it still waiting is
 * never run, and a turn of it under way is stopped with its thread. Opening a database is not the
 * work of any statement and is never stopped (a database half created would be lost).
 *
 * A new database starts from a copy of one made by initdb once per process (`newDatabaseTemplate`):
 * initdb takes some ten seconds of CPU and 600 MB at its peak, unpacking the copy under one second.
 */

export type { ThreadSession, TurnOwner } from './session';
export { PgliteTurns, type PgliteTurnsOptions } from './turns';
