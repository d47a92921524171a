/** The browser tests' server: its port, and the first company it bootstraps. */
export const E2E_PORT = Number(process.env.E2E_PORT || 8181);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_COMPANY = 'demo';
export const E2E_ADMIN_EMAIL = 'admin@demo.local';
export const E2E_ADMIN_PASSWORD = 'E2e-admin-pass-1';
/**
 * The folder the browser tests' server grants companies (FILES_ROOTS): each company reads its own
 * sub-folder, named by its id. The server also lets companies reach the local PostgreSQL and the
 * tests' fake SMTP server and Slack webhook (CONNECTION_ALLOWED_HOSTS), and nothing else of this machine.
 */
export const E2E_FILES_ROOT = process.env.E2E_FILES_ROOT || `/tmp/dataops-e2e-files-${E2E_PORT}`;
/** The ports of the fakes the tests start (an SMTP server, a Slack webhook), which the operator lets companies reach. */
export const E2E_SMTP_PORT = E2E_PORT + 1;
export const E2E_SLACK_PORT = E2E_PORT + 2;
export const E2E_ALLOWED_HOSTS = `127.0.0.1:5432,127.0.0.1:${E2E_SMTP_PORT},127.0.0.1:${E2E_SLACK_PORT}`;
/** The server's APP_SECRET (tests/e2e/server.mjs): tests sign plan grants with it, as `npm run plan -- … --grant` does. */
export const E2E_APP_SECRET = 'e2e-instance-secret-for-plan-grants-0123456789';
