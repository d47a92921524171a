import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countVitest, failureLines, playwrightFailures } from '../../../scripts/test.mjs';

describe('the test summary', () => {
  it('names each failed test and each file that did not load, beside the counts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summary-'));
    const file = path.join(dir, 'report.json');
    const root = path.resolve(import.meta.dirname, '../../..');
    fs.writeFileSync(
      file,
      JSON.stringify({
        numPassedTests: 2,
        numFailedTests: 1,
        numPendingTests: 0,
        testResults: [
          {
            name: path.join(root, 'tests/server/a.test.ts'),
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'a works' },
              { status: 'failed', fullName: 'a refuses bad input' },
            ],
          },
          { name: path.join(root, 'tests/server/b.test.ts'), status: 'failed', assertionResults: [] },
          { name: path.join(root, 'tests/server/c.test.ts'), status: 'passed', assertionResults: [{ status: 'passed', fullName: 'c' }] },
        ],
      }),
    );
    const counts = countVitest(file, 1, 'server');
    expect(counts).toMatchObject({ passed: 2, failed: 2 });
    expect(failureLines([counts])).toEqual([
      'FAILED server: tests/server/a.test.ts › a refuses bad input',
      'FAILED server: tests/server/b.test.ts (did not load)',
    ]);
  });

  it('names the browser tests that failed or passed only on a retry', () => {
    const suites = [
      {
        title: 'security.spec.ts',
        specs: [
          { title: 'shows codes', tests: [{ status: 'unexpected' }] },
          { title: 'signs in', tests: [{ status: 'expected' }] },
        ],
        suites: [{ title: 'two-factor', specs: [{ title: 'turns off', tests: [{ status: 'flaky' }] }] }],
      },
    ];
    expect(playwrightFailures(suites)).toEqual(['security.spec.ts › shows codes', 'security.spec.ts › two-factor › turns off']);
  });
});
