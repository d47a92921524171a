import pg from 'pg';
import { CopyInQuery, CopyOutQuery } from './copy';
import type { PostgresSession } from './session';

/** A `pg` client as a PostgresSession: statements, rows as text, scripts and COPY. */

/** Every value as the text PostgreSQL sent: a copy writes it back as it came. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

/** What a pg session may do to the client behind it, beyond statements. */
export interface ClientControl {
  /** The client cannot be trusted with another statement (a COPY was cut short): it is discarded, not pooled. */
  spoil(): void;
  /** Stops the client's statement under way, from another connection. */
  cancel(): Promise<void>;
}

export function sessionOf(client: pg.ClientBase, readTimeoutMs: number, control: ClientControl): PostgresSession {
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query(sql, params) {
      // queryMode 'extended' even without parameters: the simple protocol would run a second statement hidden in `sql`.
      const config = { text: sql, values: [...params], queryMode: 'extended', query_timeout: readTimeoutMs } as pg.QueryConfig;
      return (await client.query(config)).rows;
    },
    async queryText(sql, params) {
      const config = {
        text: sql,
        values: [...params],
        queryMode: 'extended',
        query_timeout: readTimeoutMs,
        rowMode: 'array',
        types: RAW_TEXT,
      } as pg.QueryArrayConfig;
      const result = await client.query(config);
      return {
        fields: result.fields.map((field) => ({ name: field.name, typeId: field.dataTypeID, typeModifier: field.dataTypeModifier })),
        rows: result.rows as Array<Array<string | null>>,
      };
    },
    async run(sql) {
      const answer = (await client.query({
        text: sql,
        query_timeout: readTimeoutMs,
        rowMode: 'array',
        types: RAW_TEXT,
      } as pg.QueryArrayConfig)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(answer) ? answer[answer.length - 1] : answer;
      return { command: last?.command ?? '', rowCount: last?.rowCount ?? undefined };
    },
    copyIn(target, data) {
      const copy = new CopyInQuery(`copy ${target} from stdin`, data);
      client.query(copy as unknown as pg.QueryConfig);
      return copy.done;
    },
    copyOut(copySql, batchRows, onBatch) {
      const copy = new CopyOutQuery(copySql, batchRows, onBatch, control.spoil);
      client.query(copy as unknown as pg.QueryConfig);
      return copy.done;
    },
    cancel: control.cancel,
    async inTransaction() {
      return client.getTransactionStatus() !== 'I';
    },
  };
}
