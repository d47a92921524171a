import { setupServer } from 'msw/node';

/**
 * The mock API shared by every console test. Tests add handlers on the paths the console
 * calls (`/api/v1/signin`, ...) with `server.use(...)`; anything unhandled fails the test.
 */
export const server = setupServer();
