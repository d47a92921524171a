import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';

/**
 * The ustar subset backups of the embedded database need: folders and plain files, streamed, so
 * a database of any size passes through a few blocks of memory. Standard `tar` reads what this
 * writes (the payload of a backup is a plain .tar.gz).
 */

const BLOCK = 512;
/** 11 octal digits: the ustar limit (8 GB); PostgreSQL keeps its files under 1 GB. */
const MAX_SIZE = 0o77777777777;

/** A damaged or hostile archive: what the restore says, after the file's name. */
export class TarError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, type: '0' | '5', size: number, mode: number, mtime: number): Buffer {
  if (size > MAX_SIZE) throw new Error(`${name} is too large for the archive (${size} bytes)`);
  const block = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(base) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (cut <= 0 || Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`${name} is too long for the archive`);
  }
  block.write(base, 0, 100, 'utf8');
  block.write(octal(mode & 0o7777, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  block.write(' '.repeat(8), 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0' + '00', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

/** How much of the archive is made at a time: each piece is one turn of the event loop. */
const PIECE = 1 << 20;

interface Entry {
  name: string;
  full: string;
  directory: boolean;
  size: number;
  mode: number;
  mtimeMs: number;
}

function listFolder(root: string, skip: (relative: string) => boolean): Entry[] {
  const entries: Entry[] = [];
  const visit = (relative: string) => {
    for (const name of readdirSync(path.join(root, relative)).sort()) {
      const child = relative ? `${relative}/${name}` : name;
      if (skip(child)) continue;
      const full = path.join(root, child);
      const info = statSync(full);
      if (info.isDirectory()) {
        entries.push({ name: `${child}/`, full, directory: true, size: 0, mode: info.mode, mtimeMs: info.mtimeMs });
        visit(child);
      } else if (info.isFile()) {
        entries.push({ name: child, full, directory: false, size: info.size, mode: info.mode, mtimeMs: info.mtimeMs });
      }
    }
  };
  visit('');
  return entries;
}

/**
 * The archive of the folder `root`, its entries named relative to it, leaving out what `skip`
 * names, in pieces of about a megabyte. Each piece is read synchronously: a server busy with
 * requests gives a backup a turn of its event loop now and then, and a thousand small files read
 * one turn each would take minutes; a megabyte from the page cache takes a fraction of a millisecond.
 */
export async function* tarFolder(root: string, skip: (relative: string) => boolean = () => false): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let partsBytes = 0;
  const add = (part: Buffer) => {
    parts.push(part);
    partsBytes += part.length;
  };
  const piece = () => {
    const out = Buffer.concat(parts, partsBytes);
    parts = [];
    partsBytes = 0;
    return out;
  };
  for (const entry of listFolder(root, skip)) {
    add(header(entry.name, entry.directory ? '5' : '0', entry.size, entry.mode, entry.mtimeMs));
    if (entry.directory) continue;
    const fd = openSync(entry.full, 'r');
    try {
      for (let position = 0; position < entry.size;) {
        const chunk = Buffer.allocUnsafe(Math.min(entry.size - position, Math.max(PIECE - partsBytes, BLOCK)));
        const read = readSync(fd, chunk, 0, chunk.length, position);
        if (read === 0) throw new Error(`${entry.full} changed while it was archived`);
        add(chunk.subarray(0, read));
        position += read;
        if (partsBytes >= PIECE) yield piece();
      }
    } finally {
      closeSync(fd);
    }
    if (entry.size % BLOCK) add(Buffer.alloc(BLOCK - (entry.size % BLOCK)));
    if (partsBytes >= PIECE) yield piece();
  }
  add(Buffer.alloc(BLOCK * 2));
  yield piece();
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new TarError('an archive header is damaged');
  return parseInt(text, 8);
}

/** The archive's entry name as a path inside `into`; refuses names that would leave it. */
function inside(into: string, name: string): string {
  const clean = name.replace(/\/+$/, '');
  if (!clean || path.isAbsolute(clean) || clean.split('/').some((part) => part === '..' || part === '')) {
    throw new TarError(`the archive names a path outside its folder ("${name}")`);
  }
  return path.join(into, clean);
}

/**
 * Unpacks an archive read from `source` into the folder `into` (created, mode 0700; files 0600,
 * whatever the archive says). Refuses links, devices and names that would leave the folder.
 */
export async function untarInto(source: AsyncIterable<Buffer>, into: string): Promise<{ files: number }> {
  await mkdir(into, { recursive: true, mode: 0o700 });
  let pending: Buffer = Buffer.alloc(0);
  let files = 0;
  let ended = false;
  /** Open file being filled and how many of its bytes are still to come. */
  let current: { handle: Awaited<ReturnType<typeof open>>; left: number; padding: number } | undefined;
  let skipPadding = 0;

  const take = async (): Promise<void> => {
    for (;;) {
      if (current) {
        if (current.left > 0) {
          if (pending.length === 0) return;
          const part = pending.subarray(0, Math.min(current.left, pending.length));
          await current.handle.write(part);
          current.left -= part.length;
          pending = pending.subarray(part.length);
          continue;
        }
        await current.handle.close();
        skipPadding = current.padding;
        current = undefined;
      }
      if (skipPadding > 0) {
        const skipped = Math.min(skipPadding, pending.length);
        pending = pending.subarray(skipped);
        skipPadding -= skipped;
        if (skipPadding > 0) return;
      }
      if (ended || pending.length < BLOCK) return;
      const block = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (block.every((byte) => byte === 0)) {
        ended = true;
        return;
      }
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
      if (readOctal(block, 148, 8) !== sum) throw new TarError('an archive header is damaged (its checksum does not match)');
      const prefix = field(block, 345, 155);
      const name = (prefix ? `${prefix}/` : '') + field(block, 0, 100);
      const type = field(block, 156, 1) || '0';
      const size = readOctal(block, 124, 12);
      const target = inside(into, name);
      if (type === '5') {
        await mkdir(target, { recursive: true, mode: 0o700 });
      } else if (type === '0') {
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        current = { handle: await open(target, 'wx', 0o600), left: size, padding: size % BLOCK ? BLOCK - (size % BLOCK) : 0 };
        files += 1;
      } else {
        throw new TarError(`the archive holds an entry of a kind a database backup never has ("${name}", type ${type})`);
      }
    }
  };

  try {
    for await (const chunk of source) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      await take();
    }
    await take();
  } finally {
    await current?.handle.close();
  }
  if (current || !ended) throw new TarError('the archive ends before its last file');
  return { files };
}
