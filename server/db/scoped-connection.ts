import { AsyncResource } from 'node:async_hooks';
import pg from 'pg';
import { writeOf, type TableWatch } from './table-watch';
import { currentScope, scopeSettings } from './tenant-scope';
import { EVERYTHING, transactionStep, type Announcement } from './write-announcements';

/**
 * PostgreSQL connections that tell the server, before a statement, whose rows it may touch: the
 * tenant scope of the code that runs it (tenant-scope.ts) becomes the session setting
 * `app.company_id`, which the row-level security policies read (migrations 0011 and 0018), and the
 * role the statement runs as: the server's role for a company's work (or no scope's: it sees no
 * tenant row), the role that bypasses the policies for system work (server-role.ts).
 *
 * A pooled connection remembers the scope it last set, so the settings are sent only when a
 * statement of another scope comes along (a request of another company): one short round trip
 * then, none on the next statements of the same request. A statement waits for its settings and
 * does not run if setting them failed. What the connection remembers is forgotten when a
 * statement fails or a transaction is rolled back (PostgreSQL undoes a setting made inside a
 * transaction that rolls back), so the settings are sent again before the next statement.
 */

type Send = (...args: unknown[]) => unknown;
type Callback = (error: unknown, result: unknown) => void;
type ClientClass = new (config?: string | pg.ClientConfig) => pg.Client;

const SET_SCOPE = "select set_config('role', $2, false), set_config('app.company_id', $1, false)";
/** Ends a transaction by undoing it, and with it any setting made inside. */
const UNDOES_SETTINGS = /^\s*(rollback|abort)\b/i;

interface QueryLike {
  text?: string;
  submit?: unknown;
}

/** The roles statements run as: `company` for a company's work and no scope's, `system` for work across companies. */
export interface ScopeRoles {
  company: string;
  system: string;
}

/**
 * What the server's statements write, told to this process's watch and announced to the other
 * servers (table-watch.ts, write-announcements.ts).
 */
export interface WriteTracking {
  watch: TableWatch;
  /** Tables holding company rows under row-level security: a company's statement wrote only its own there. */
  companyTables: ReadonlySet<string>;
  /** Tells the other servers of committed writes; resolves once they can hear it. */
  announce(writes: ReadonlyArray<Announcement | typeof EVERYTHING>): Promise<void>;
}

/**
 * One connection's writes: applied to the watch once committed (a transaction's rows are seen by
 * other connections only from its commit), then announced. The
 * statement that committed returns only once the announcement is made, so that no caller hears of
 * a write before every server can.
 */
class ConnectionWrites {
  private inTransaction = false;
  private written: Array<Announcement | typeof EVERYTHING> = [];

  constructor(private readonly tracking: WriteTracking) {}

  /**
   * Before a statement is sent: what it writes. Nothing is applied yet: until the commit, other
   * connections read the rows as they were, and what they keep then is outdated at the commit.
   */
  before(text: string): Announcement | typeof EVERYTHING | null {
    const write = writeOf(text, this.tracking.companyTables);
    if (write && this.inTransaction) this.written.push(write);
    return write;
  }

  /** After it succeeded: a commit, or a write outside a transaction, is applied again and announced. */
  after(text: string, write: Announcement | typeof EVERYTHING | null): Promise<void> | undefined {
    const step = transactionStep(text);
    if (step === 'begin') {
      this.inTransaction = true;
      this.written = [];
      return undefined;
    }
    if (step === 'rollback') {
      this.inTransaction = false;
      this.written = [];
      return undefined;
    }
    let committed: Array<Announcement | typeof EVERYTHING>;
    if (step === 'commit') {
      committed = this.written;
      this.inTransaction = false;
      this.written = [];
    } else if (write && !this.inTransaction) committed = [write];
    else return undefined;
    if (committed.length === 0) return undefined;
    for (const each of committed) this.tracking.watch.apply(each);
    return this.tracking.announce(committed);
  }

  /** A statement failed. A failed commit ends its transaction all the same (PostgreSQL rolls it back). */
  failed(text: string): void {
    if (transactionStep(text) !== 'commit') return;
    this.inTransaction = false;
    this.written = [];
  }
}

export function scopedClientClass(Base: ClientClass, roles: ScopeRoles, tracking?: WriteTracking): ClientClass {
  return class ScopedClient extends Base {
    /** The scope this connection's settings hold; undefined when not known. */
    private settingsKey: string | undefined;
    private readonly writes = tracking ? new ConnectionWrites(tracking) : undefined;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const send = this.query.bind(this) as Send;
      this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
        const { companyId, system } = scopeSettings(currentScope());
        const role = system ? roles.system : roles.company;
        const key = `${companyId}/${role}`;
        const text = typeof config === 'string' ? config : (config as QueryLike | null)?.text;
        const undoes = typeof text === 'string' && UNDOES_SETTINGS.test(text);
        const streamed = typeof (config as QueryLike | null)?.submit === 'function';
        const done = typeof values === 'function' ? (values as Callback) : typeof callback === 'function' ? (callback as Callback) : null;
        const params = typeof values === 'function' ? undefined : values;
        const forget = () => (this.settingsKey = undefined);
        const writes = streamed || typeof text !== 'string' ? undefined : this.writes;
        const run = () => {
          const write = writes?.before(text!) ?? null;
          let result: unknown;
          if (done) {
            result = send(config, params, (error: unknown, answer: unknown) => {
              if (error) {
                forget();
                writes?.failed(text!);
              }
              const announced = error ? undefined : writes?.after(text!, write);
              if (announced)
                announced.then(
                  () => done(error, answer),
                  () => done(error, answer),
                );
              else done(error, answer);
            });
          } else {
            result = send(config, values);
            if (result instanceof Promise) {
              result = result.then(
                async (answer: unknown) => {
                  await writes?.after(text!, write);
                  return answer;
                },
                (error: unknown) => {
                  forget();
                  writes?.failed(text!);
                  return Promise.reject(error);
                },
              );
            }
          }
          if (undoes) forget();
          return result;
        };
        // Ending a transaction needs no settings, and after a failed statement PostgreSQL would refuse them until it ends.
        if (this.settingsKey === key || undoes) return run();
        const setting = send({ text: SET_SCOPE, values: [companyId, role] }) as Promise<unknown>;
        if (streamed) {
          // A cursor is handed to the connection as it is: it is queued right behind the settings,
          // on the same connection, which runs them in order, and fails with them.
          setting.then(() => (this.settingsKey = key), forget);
          return run();
        }
        const ready = setting.then(
          () => {
            this.settingsKey = key;
          },
          (error: unknown) => {
            forget();
            throw error;
          },
        );
        if (done) {
          ready.then(run, (error: unknown) => done(error, undefined));
          return undefined;
        }
        return ready.then(run);
      }) as typeof this.query;
    }
  };
}

/**
 * A pool that hands each caller its connection in the caller's own scope. pg-pool gives a waiting
 * caller the connection another call releases, by calling the waiting callback from inside that
 * release — in the releasing call's context, another request's — and its `query` sends the
 * statement from there. The callback is bound to the context it was asked in, so the statement is
 * scoped to the code that asked for it. (A caller awaiting `connect()` gets its own context back
 * from the promise.)
 */
export class ScopedPool extends pg.Pool {
  connect(): Promise<pg.PoolClient>;
  connect(callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  connect(
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    if (typeof callback === 'function') return super.connect(AsyncResource.bind(callback));
    return super.connect();
  }
}
