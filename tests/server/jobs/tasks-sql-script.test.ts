import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../../server/jobs/tasks/sql-script';

/** How a SQL file is cut into statements (server/jobs/tasks/sql-script.ts). */

describe('cutting a SQL file into statements', () => {
  it('cuts at the semicolons that end statements, not at those in strings, names, comments or dollar-quoted bodies, and knows each one’s line', () => {
    const script = [
      '-- a comment; not a statement',
      "insert into t values ('a;b', 'it''s;', E'back\\';slash');",
      'create function f() returns int as $body$ select 1; $body$ language sql;',
      '/* block; /* nested; */ still; */ select "odd;name" from t',
      '; ;',
      'select $$;$$',
    ].join('\n');
    expect(splitStatements(script, 'postgres')).toEqual([
      { text: "insert into t values ('a;b', 'it''s;', E'back\\';slash')", line: 2 },
      { text: 'create function f() returns int as $body$ select 1; $body$ language sql', line: 3 },
      { text: 'select "odd;name" from t', line: 4 },
      { text: 'select $$;$$', line: 6 },
    ]);
  });

  it('reads MySQL’s backslash escapes, backquoted names and # comments', () => {
    const script = "# set up\nINSERT INTO `semi;colon` VALUES ('it\\'s; fine', \"dq;\");\n-- done\nSELECT 1";
    expect(splitStatements(script, 'mysql')).toEqual([
      { text: "INSERT INTO `semi;colon` VALUES ('it\\'s; fine', \"dq;\")", line: 2 },
      { text: 'SELECT 1', line: 4 },
    ]);
  });

  it('finds nothing in a file of comments', () => {
    expect(splitStatements('-- nothing\n/* here */\n', 'postgres')).toEqual([]);
  });

  it('refuses what it cannot cut, saying where', () => {
    expect(() => splitStatements("select 1;\nselect 'open", 'postgres')).toThrow("The file has a ' opened on line 2 and never closed");
    expect(() => splitStatements('select 1;\n\nselect $x$ body', 'postgres')).toThrow(
      'The file has a $x$ body opened on line 3 and never closed',
    );
    expect(() => splitStatements('DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; END //', 'mysql')).toThrow(
      'Line 1: DELIMITER is a command of the mysql client, not SQL; end each statement with a semicolon instead',
    );
  });
});
