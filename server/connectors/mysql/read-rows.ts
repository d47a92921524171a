import type mysql from 'mysql2/promise';
import { abortReason, type CellValue, type RowReading } from '../types';
import type { MysqlConnections } from './connection';
import { columnOfField, decoderOf } from './fields';

/**
 * Streams the query's rows in a read-only transaction with a consistent snapshot; the driver
 * reads ahead while a batch is written and pauses the socket beyond one batch. Values come
 * undecoded (text as the server wrote it, bytes for binary columns).
 */
export function mysqlRowReader(withOwnConnection: MysqlConnections['withOwnConnection']): RowReading['readRows'] {
  return (sql, params, { batchSize, signal }, sink) => {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return withOwnConnection(async (connection, core) => {
      await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      const query = core.query({ sql, values: [...params] as never[], rowsAsArray: true, typeCast: false });
      let fields: mysql.FieldPacket[] = [];
      query.on('fields', (received: mysql.FieldPacket[]) => {
        fields = received;
      });
      const stream = query.stream({ highWaterMark: batchSize });
      let decoders: Array<(value: Buffer | null) => CellValue> | undefined;
      const begin = async () => {
        decoders = fields.map(decoderOf);
        await sink.start(fields.map(columnOfField));
      };
      let batch: CellValue[][] = [];
      try {
        for await (const raw of stream as AsyncIterable<Array<Buffer | null>>) {
          if (!decoders) await begin();
          batch.push(raw.map((value, index) => decoders![index]!(value)));
          if (batch.length >= batchSize) {
            if (signal?.aborted) throw abortReason(signal);
            const full = batch;
            batch = [];
            await sink.write({ format: 'values', rows: full });
          }
        }
      } finally {
        stream.destroy();
      }
      if (!decoders) await begin();
      if (batch.length > 0) {
        if (signal?.aborted) throw abortReason(signal);
        await sink.write({ format: 'values', rows: batch });
      }
      await connection.query('COMMIT');
    });
  };
}
