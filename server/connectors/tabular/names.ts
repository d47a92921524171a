import { createHash } from 'node:crypto';

/** Names in SQL: how long PostgreSQL keeps a name, a file's table name, and the quoted names a statement uses. */

export const MAX_NAME_BYTES = 63;

export function truncateToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let cut = '';
  for (const char of text) {
    if (Buffer.byteLength(cut + char) > maxBytes) break;
    cut += char;
  }
  return cut;
}

/** The endpoint itself when PostgreSQL can keep it as a name; otherwise its start and a hash of it. */
export function tableIdentifier(endpoint: string): string {
  if (Buffer.byteLength(endpoint) <= MAX_NAME_BYTES) return endpoint;
  const hash = createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
  return `${truncateToBytes(endpoint, MAX_NAME_BYTES - hash.length - 1)}~${hash}`;
}

/** `$$` or `$tag$`, which open a dollar-quoted string (a parameter, `$1`, does not). */
const DOLLAR_QUOTE = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/** The double-quoted names in a statement, outside its strings and comments. */
export function quotedIdentifiers(sql: string): string[] {
  const names: string[] = [];
  let i = 0;
  const skipTo = (end: string, from: number) => {
    const at = sql.indexOf(end, from);
    return at === -1 ? sql.length : at + end.length;
  };
  while (i < sql.length) {
    const char = sql[i]!;
    if (char === "'") {
      i += 1;
      while (i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === "'" ? 2 : 1;
      i += 1;
    } else if (char === '-' && sql[i + 1] === '-') {
      i = skipTo('\n', i);
    } else if (char === '/' && sql[i + 1] === '*') {
      i = skipTo('*/', i + 2);
    } else if (char === '$' && DOLLAR_QUOTE.test(sql.slice(i, i + 64))) {
      const tag = DOLLAR_QUOTE.exec(sql.slice(i, i + 64))![0];
      i = skipTo(tag, i + tag.length);
    } else if (char === '"') {
      let name = '';
      i += 1;
      while (i < sql.length) {
        if (sql[i] === '"' && sql[i + 1] === '"') {
          name += '"';
          i += 2;
        } else if (sql[i] === '"') break;
        else name += sql[i++];
      }
      i += 1;
      names.push(name);
    } else {
      i += 1;
    }
  }
  return names;
}
