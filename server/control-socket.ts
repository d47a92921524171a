import { chmod, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Backup } from './db/backup';

/**
 * The operator's channel to a running server: a Unix socket in the data directory, mode 0600
 * inside a directory of mode 0700, so only the server's own account (and root) reaches it. A
 * company's admin has no way to it: it is not HTTP and answers no API token. `npm run backup`
 * asks it for a backup of the embedded database, which only this process may open.
 *
 * One request per connection: a line of JSON (`{"command":"backup"}`), answered by a line of
 * JSON (`ControlAnswer`); after a successful answer come the backup's bytes in frames (a 4-byte
 * length, then as many bytes), a frame of length 0, and a last line of JSON (`ControlEnd`), so
 * a backup cut short by the server is never taken for a whole one.
 */

export const CONTROL_SOCKET_NAME = 'control.sock';

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, CONTROL_SOCKET_NAME);
}

export interface ControlRequest {
  command: 'backup';
}

export type ControlAnswer = { ok: true; heldMs: number; createdAt: string; lastMigration: string | null } | { ok: false; message: string };

export type ControlEnd = { ok: true; bytes: number } | { ok: false; message: string };

export interface ControlCommands {
  backup(): Promise<Backup>;
}

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

function line(value: ControlAnswer | ControlEnd): string {
  return JSON.stringify(value) + '\n';
}

/** Frames of at most 64 KB, so the reader never gathers more than that to find where one ends. */
function framed(chunk: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < chunk.length; at += FRAME_BYTES) {
    const part = chunk.subarray(at, at + FRAME_BYTES);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(part.length);
    parts.push(length, part);
  }
  return Buffer.concat(parts);
}

/** Resolves once the socket takes more, or is gone. */
function waitForDrain(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

const FRAME_BYTES = 64 * 1024;

/** A request is one short line; a peer that sends more, or nothing, is dropped. */
const MAX_REQUEST_BYTES = 4096;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Listens on DATA_DIR/control.sock. The caller holds the data directory's lock, so a socket file
 * found there was left by a server that stopped without removing it, and is replaced. Answers
 * undefined, after a warning, when the socket cannot be opened: the server runs without it.
 */
export async function startControlSocket(
  dataDir: string,
  commands: ControlCommands,
  say: { log: (message: string) => void; warn: (message: string) => void },
): Promise<ControlSocket | undefined> {
  const socketPath = controlSocketPath(dataDir);
  const connections = new Set<net.Socket>();
  let backupRunning = false;

  const answer = async (socket: net.Socket, request: ControlRequest): Promise<void> => {
    if (request.command !== 'backup') {
      socket.end(line({ ok: false, message: `Unknown command "${String(request.command)}".` }));
      return;
    }
    if (backupRunning) {
      socket.end(line({ ok: false, message: 'A backup is already being taken; try again when it has finished.' }));
      return;
    }
    backupRunning = true;
    let backup: Backup | undefined;
    try {
      try {
        backup = await commands.backup();
      } catch (error) {
        socket.end(line({ ok: false, message: (error as Error).message } satisfies ControlAnswer));
        return;
      }
      const heldMs = Math.round(backup.heldMs);
      const reply: ControlAnswer = {
        ok: true,
        heldMs,
        createdAt: backup.header.createdAt,
        lastMigration: backup.header.lastMigration?.tag ?? null,
      };
      socket.write(line(reply));
      let bytes = 0;
      try {
        for await (const chunk of backup.file) {
          if (socket.destroyed) return;
          // A frame of length 0 ends the backup.
          if (chunk.length === 0) continue;
          bytes += chunk.length;
          if (!socket.write(framed(chunk))) await waitForDrain(socket);
        }
      } catch (error) {
        socket.end(
          Buffer.concat([Buffer.alloc(4), Buffer.from(line({ ok: false, message: (error as Error).message } satisfies ControlEnd))]),
        );
        return;
      }
      // Gone before the end is told, so a finished backup leaves nothing behind in the data directory.
      await backup.discard();
      socket.end(Buffer.concat([Buffer.alloc(4), Buffer.from(line({ ok: true, bytes } satisfies ControlEnd))]));
      say.log(`A backup of the embedded database was taken (${(bytes / 1e6).toFixed(1)} MB); statements waited ${heldMs} ms for it.`);
    } finally {
      backupRunning = false;
      await backup?.discard();
    }
  };

  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => {});
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\n');
      if (end < 0) {
        if (received.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      socket.setTimeout(0);
      let request: unknown;
      try {
        request = JSON.parse(received.slice(0, end));
      } catch {
        socket.end(line({ ok: false, message: 'The request is not a line of JSON.' }));
        return;
      }
      if (typeof request !== 'object' || request === null) {
        socket.end(line({ ok: false, message: 'The request is not a JSON object with a "command".' }));
        return;
      }
      answer(socket, request as ControlRequest).catch((error: Error) => {
        if (!socket.destroyed) socket.end(line({ ok: false, message: error.message }));
      });
    };
    socket.on('data', onData);
  });

  try {
    await rm(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // The umask already keeps others out; the mode says so whatever started the process.
    await chmod(socketPath, 0o600);
  } catch (error) {
    server.close();
    say.warn(
      `Warning: the control socket ${socketPath} could not be opened (${(error as Error).message}); ` +
        '`npm run backup` cannot reach this server. Stop it to back up the data directory.',
    );
    return undefined;
  }

  return {
    path: socketPath,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      });
      await rm(socketPath, { force: true });
    },
  };
}
