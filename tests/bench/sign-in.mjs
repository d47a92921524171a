import { percentile, ms } from './stats.mjs';

/** Server-side cost of a sign-in (argon2id verify, session row, token), over 30 calls in a row. */
export async function measureSignIn({ baseUrl, account }) {
  const times = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    await res.json();
    if (!res.ok) throw new Error(`sign-in answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return [
    '## Sign-in cost',
    '',
    'Command: `npm run bench` — 30 sequential `POST /api/v1/signin` calls with a correct password.',
    '',
    '| figure | value |',
    '|---|---|',
    `| p50 | ${ms(percentile(times, 50))} |`,
    `| p95 | ${ms(percentile(times, 95))} |`,
  ];
}
