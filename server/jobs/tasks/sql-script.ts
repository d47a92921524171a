import type { Dialect } from '../../connectors/types';

/**
 * A file of SQL statements cut at the semicolons that end them, as psql and the mysql client cut
 * one, so that each statement runs and reports on its own. A semicolon inside a string, a quoted
 * name, a comment or (PostgreSQL) a dollar-quoted body does not end a statement. Not understood:
 * the mysql client's DELIMITER command (refused with a message) and PostgreSQL's
 * `BEGIN ATOMIC … END` function bodies (write those with a dollar-quoted body).
 */

export interface ScriptStatement {
  /** The statement without its closing semicolon, comments before it left out. */
  text: string;
  /** The line of the file it starts on, from 1. */
  line: number;
}

const DOLLAR_QUOTE = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

export function splitStatements(script: string, dialect: Dialect): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  let start = -1;
  let startLine = 1;
  let line = 1;
  let i = 0;
  const end = script.length;

  /** Moves to `to`, counting the lines passed. */
  const advanceTo = (to: number) => {
    for (let at = i; at < to && at < end; at += 1) if (script[at] === '\n') line += 1;
    i = Math.min(to, end);
  };
  const begin = () => {
    if (start === -1) {
      start = i;
      startLine = line;
    }
  };
  const close = () => {
    if (start !== -1) statements.push({ text: script.slice(start, i).trim(), line: startLine });
    start = -1;
  };
  /** The index just past a quoted run that opened at `i` with `quote`; backslashes escape in MySQL strings and PostgreSQL's E'' strings. */
  const quotedEnd = (quote: string, backslashEscapes: boolean) => {
    let at = i + 1;
    while (at < end) {
      const char = script[at]!;
      if (backslashEscapes && char === '\\') at += 2;
      else if (char === quote && script[at + 1] === quote) at += 2;
      else if (char === quote) return at + 1;
      else at += 1;
    }
    throw new Error(`The file has a ${quote} opened on line ${line} and never closed`);
  };

  while (i < end) {
    const char = script[i]!;
    const next = script[i + 1];
    if (char === ';') {
      close();
      advanceTo(i + 1);
    } else if (/\s/.test(char)) {
      advanceTo(i + 1);
    } else if (char === '-' && next === '-' && (dialect === 'postgres' || /\s|$/.test(script[i + 2] ?? ''))) {
      const eol = script.indexOf('\n', i);
      advanceTo(eol === -1 ? end : eol);
    } else if (char === '#' && dialect === 'mysql') {
      const eol = script.indexOf('\n', i);
      advanceTo(eol === -1 ? end : eol);
    } else if (char === '/' && next === '*') {
      advanceTo(commentEnd(script, i, dialect, line));
    } else if (char === "'") {
      begin();
      const escapes = dialect === 'mysql' || (/[eE]/.test(script[i - 1] ?? '') && !/[A-Za-z0-9_]/.test(script[i - 2] ?? ''));
      advanceTo(quotedEnd("'", escapes));
    } else if (char === '"') {
      begin();
      advanceTo(quotedEnd('"', dialect === 'mysql'));
    } else if (char === '`' && dialect === 'mysql') {
      begin();
      advanceTo(quotedEnd('`', false));
    } else if (
      char === '$' &&
      dialect === 'postgres' &&
      DOLLAR_QUOTE.test(script.slice(i, i + 64)) &&
      !/[A-Za-z0-9_]/.test(script[i - 1] ?? '')
    ) {
      begin();
      const tag = DOLLAR_QUOTE.exec(script.slice(i, i + 64))![0];
      const closing = script.indexOf(tag, i + tag.length);
      if (closing === -1) throw new Error(`The file has a ${tag} body opened on line ${line} and never closed`);
      advanceTo(closing + tag.length);
    } else {
      if (start === -1 && dialect === 'mysql' && /^delimiter\s/i.test(script.slice(i, i + 10))) {
        throw new Error(`Line ${line}: DELIMITER is a command of the mysql client, not SQL; end each statement with a semicolon instead`);
      }
      begin();
      advanceTo(i + 1);
    }
  }
  close();
  return statements;
}

/** The index past a block comment opened at `from`; PostgreSQL's nest. */
function commentEnd(script: string, from: number, dialect: Dialect, line: number): number {
  let depth = 0;
  let at = from;
  while (at < script.length) {
    if (script[at] === '/' && script[at + 1] === '*') {
      depth = dialect === 'postgres' ? depth + 1 : 1;
      at += 2;
    } else if (script[at] === '*' && script[at + 1] === '/') {
      depth -= 1;
      at += 2;
      if (depth === 0) return at;
    } else at += 1;
  }
  throw new Error(`The file has a /* comment opened on line ${line} and never closed`);
}
