import { describe, expect, it } from 'vitest';
import { checkCompanySql } from '../../../server/sql/company-sql';

/**
 * Company SQL is parsed in a thread of its own: while a long text is checked, this thread goes on
 * with its other work (a server's other requests), and checks from many callers all come back
 * with their own answers.
 */

const wideQuery = (columns: number) =>
  `select ${Array.from({ length: columns }, (_, i) => `c${i} + ${i} as x${i}`).join(', ')} from t where a = 1`;

describe('checking company SQL off the request thread', () => {
  it.each(['postgres', 'mysql'] as const)('lets this thread run other work while a long %s text is parsed', async (dialect) => {
    await checkCompanySql(dialect, 'select 1');
    let otherWorkRan = false;
    setTimeout(() => {
      otherWorkRan = true;
    }, 0);
    // On this thread the parse would run from start to end before any timer: the answer would come first.
    const printed = await checkCompanySql(dialect, wideQuery(900));
    expect(printed).toMatch(/x899/);
    expect(otherWorkRan).toBe(true);
  });

  it('answers each of many checks at once with its own result, refusals included', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? `select pg_read_file('/etc/${i}')` : `select ${i} as n`));
    const answers = await Promise.all(
      texts.map((text) =>
        checkCompanySql('postgres', text).then(
          (sql) => sql,
          (error: Error) => `refused: ${error.message}`,
        ),
      ),
    );
    answers.forEach((answer, i) => {
      if (i % 4 === 3) expect(answer).toBe('refused: pg_read_file is not allowed: it reads files of the database server');
      else expect(answer).toBe(`SELECT ${i} AS n`);
    });
  });
});
