import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countVitest, failureLines, playwrightFailures } from '../../../scripts/test.mjs';

describe('the test summary', () => {
  it('names each failed test and each file that did not load, beside the counts, with why', () => {
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
              {
                status: 'failed',
                fullName: 'a refuses bad input',
                failureMessages: [
                  '\u001b[31mAssertionError: expected 500 to be 400\u001b[39m\n\n- Expected\n+ Received\n    at /repo/tests/server/a.test.ts:12:5\n    at run (/repo/node_modules/x.js:1:1)',
                ],
              },
            ],
          },
          { name: path.join(root, 'tests/server/b.test.ts'), status: 'failed', message: 'Cannot find module ./gone', assertionResults: [] },
          { name: path.join(root, 'tests/server/c.test.ts'), status: 'passed', assertionResults: [{ status: 'passed', fullName: 'c' }] },
        ],
      }),
    );
    const counts = countVitest(file, 1, 'server');
    expect(counts).toMatchObject({ passed: 2, failed: 2 });
    expect(failureLines([counts])).toEqual([
      'FAILED server: tests/server/a.test.ts › a refuses bad input',
      '    AssertionError: expected 500 to be 400',
      '    - Expected',
      '    + Received',
      'FAILED server: tests/server/b.test.ts (did not load)',
      '    Cannot find module ./gone',
    ]);
  });

  it('names the browser tests that failed or passed only on a retry', () => {
    const suites = [
      {
        title: 'security.spec.ts',
        specs: [
          {
            title: 'shows codes',
            tests: [
              { status: 'unexpected', results: [{ error: { message: 'Timed out 5000ms waiting for expect(locator).toBeVisible()' } }] },
            ],
          },
          { title: 'signs in', tests: [{ status: 'expected' }] },
        ],
        suites: [{ title: 'two-factor', specs: [{ title: 'turns off', tests: [{ status: 'flaky' }] }] }],
      },
    ];
    expect(playwrightFailures(suites)).toEqual([
      { name: 'security.spec.ts › shows codes', reason: 'Timed out 5000ms waiting for expect(locator).toBeVisible()' },
      { name: 'security.spec.ts › two-factor › turns off', reason: undefined },
    ]);
  });
});
