// ---- COPY through pg's custom-query interface ----------------------------------------------------
//
// pg sends COPY data only through a "submittable" query: an object it hands the connection to and
// tells of each message. pg-copy-streams is the usual one; it is not a dependency, so these two
// speak the protocol's few COPY messages themselves (PostgreSQL's manual, "COPY Operations").

/** The part of pg's connection a COPY needs: sending a statement, and the socket for the data. */
interface PgConnection {
  query(text: string): void;
  stream: NodeJS.WritableStream & { pause(): void; resume(): void; destroy(): void };
}

/** CopyDone: 'c' and a length of 4. */
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);
/** A batch of COPY text starts this large and doubles when a batch needs more. */
const COPY_BUFFER_BYTES = 1 << 20;
/** Batches read ahead before the source is paused until the destination catches up. */
const COPY_BATCHES_AHEAD = 2;

function settled<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** The messages a COPY does not expect, which pg may still pass on. */
abstract class CopyQuery {
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(_connection: PgConnection): void {}
  handleCopyData(_message: { chunk: Buffer }): void {}
}

/** The rows a "COPY n" command tag counts. */
const copiedRows = (tag: string) => Number(/^COPY (\d+)/.exec(tag)?.[1] ?? 0);

/** `COPY … FROM STDIN`: the whole batch goes as one CopyData message once the server asks for it, then CopyDone. */
export class CopyInQuery extends CopyQuery {
  private readonly outcome = settled<number>();
  readonly done = this.outcome.promise;
  private rows = 0;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
  ) {
    super();
  }

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  override handleCopyInResponse(connection: PgConnection): void {
    const header = Buffer.allocUnsafe(5);
    header[0] = 0x64; // CopyData: 'd' and the length of what follows, the length itself included
    header.writeUInt32BE(this.data.length + 4, 1);
    connection.stream.write(header);
    connection.stream.write(this.data);
    connection.stream.write(COPY_DONE);
  }

  handleCommandComplete(message: { text: string }): void {
    this.rows = copiedRows(message.text);
  }

  handleReadyForQuery(): void {
    this.outcome.resolve(this.rows);
  }

  handleError(error: Error): void {
    this.outcome.reject(error);
  }
}

/**
 * `COPY … TO STDOUT`, cut into batches of `batchRows` lines (in COPY text a line break inside a
 * value is written `\n`, so every line feed ends a row). A batch is handed over while the next
 * arrives; with `COPY_BATCHES_AHEAD` waiting, the socket is paused. A batch that fails to be
 * written ends the COPY: the connection is closed (the server then stops) and never reused.
 */
export class CopyOutQuery extends CopyQuery {
  private readonly outcome = settled<number>();
  readonly done = this.outcome.promise;
  private connection: PgConnection | undefined;
  private buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
  private used = 0;
  private lines = 0;
  private readonly waiting: Array<{ data: Buffer; rows: number }> = [];
  private handedOver = 0;
  /** The batch being written, if any: a failure is answered once it has settled, so nothing is written after the answer. */
  private writing: Promise<void> | undefined;
  private paused = false;
  private serverDone = false;
  private failed = false;

  constructor(
    private readonly text: string,
    private readonly batchRows: number,
    private readonly onBatch: (data: Buffer, rows: number) => Promise<void>,
    private readonly spoil: () => void,
  ) {
    super();
  }

  submit(connection: PgConnection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  override handleCopyData(message: { chunk: Buffer }): void {
    if (this.failed) return;
    // Copied at once: pg reuses the memory the chunk points into for the messages that follow.
    const chunk = message.chunk;
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) {
      this.lines += 1;
      if (this.lines === this.batchRows) {
        this.keep(chunk, start, at + 1);
        this.endBatch();
        start = at + 1;
      }
    }
    if (start < chunk.length) this.keep(chunk, start, chunk.length);
  }

  handleCommandComplete(): void {
    this.endBatch();
  }

  handleReadyForQuery(): void {
    this.serverDone = true;
    this.finishWhenWritten();
  }

  handleError(error: Error): void {
    this.fail(error);
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    const needed = this.used + (to - from);
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.used, from, to);
    this.used = needed;
  }

  private endBatch(): void {
    if (this.lines === 0) return;
    this.waiting.push({ data: this.buffer.subarray(0, this.used), rows: this.lines });
    this.buffer = Buffer.allocUnsafe(this.buffer.length);
    this.used = 0;
    this.lines = 0;
    if (this.waiting.length >= COPY_BATCHES_AHEAD && !this.paused) {
      this.paused = true;
      this.connection?.stream.pause();
    }
    this.handOver();
  }

  private handOver(): void {
    if (this.writing || this.failed) return;
    this.writing = (async () => {
      while (this.waiting.length > 0 && !this.failed) {
        const batch = this.waiting.shift()!;
        if (this.paused && this.waiting.length < COPY_BATCHES_AHEAD) {
          this.paused = false;
          this.connection?.stream.resume();
        }
        try {
          await this.onBatch(batch.data, batch.rows);
          this.handedOver += batch.rows;
        } catch (error) {
          this.writing = undefined;
          this.fail(error instanceof Error ? error : new Error(String(error)));
          return;
        }
      }
      this.writing = undefined;
      this.finishWhenWritten();
    })();
  }

  private finishWhenWritten(): void {
    if (this.serverDone && !this.writing && this.waiting.length === 0 && !this.failed) this.outcome.resolve(this.handedOver);
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.waiting.length = 0;
    if (!this.serverDone) {
      this.spoil();
      this.connection?.stream.destroy();
    }
    const reject = () => this.outcome.reject(error);
    if (this.writing) void this.writing.then(reject, reject);
    else reject();
  }
}
