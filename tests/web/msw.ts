import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The mock API shared by every console test. Tests add handlers on the paths the console
 * calls (`/api/v1/signin`, ...) with `server.use(...)`; anything unhandled fails the test.
 *
 * The app bar's notification bell calls on every signed-in screen; its answers default to "no
 * notifications" here (a test about notifications overrides them), so that every other screen's
 * test need not mock the bell.
 */
export const server = setupServer(
  http.get('/api/v1/notifications/count', () => HttpResponse.json({ message: 'Notification count', data: { unread: 0, total: 0 } })),
  http.get('/api/v1/notifications', () => HttpResponse.json({ message: 'Latest notifications', data: [] })),
);
