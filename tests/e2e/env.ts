/** The browser tests' server: its port, and the first company it bootstraps. */
export const E2E_PORT = Number(process.env.E2E_PORT || 8181);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_COMPANY = 'demo';
export const E2E_ADMIN_EMAIL = 'admin@demo.local';
export const E2E_ADMIN_PASSWORD = 'E2e-admin-pass-1';
