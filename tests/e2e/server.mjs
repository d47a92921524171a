// Starts the real server for the browser tests on a fresh data directory, and removes the
// directory when it stops.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-e2e-'));
// The folder granted to companies (playwright.config.ts), made fresh and removed with the data directory.
const filesRoot = process.env.FILES_ROOTS;
if (filesRoot) {
  fs.rmSync(filesRoot, { recursive: true, force: true });
  fs.mkdirSync(filesRoot, { recursive: true, mode: 0o700 });
}
const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: process.env.PORT || '8181',
    BOOTSTRAP_COMPANY_HOSTNAME: 'demo',
    BOOTSTRAP_ADMIN_EMAIL: 'admin@demo.local',
    BOOTSTRAP_ADMIN_PASSWORD: 'E2e-admin-pass-1',
    // Known to the tests (tests/e2e/env.ts, E2E_APP_SECRET), which sign plan grants with it.
    APP_SECRET: 'e2e-instance-secret-for-plan-grants-0123456789',
    DATABASE_URL: '',
    SMTP_URL: '',
    LOG_LEVEL: 'warn',
  },
});
const stop = (signal) => child.kill(signal);
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (filesRoot) fs.rmSync(filesRoot, { recursive: true, force: true });
  process.exit(code ?? 0);
});
