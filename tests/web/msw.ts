import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { DEFAULT_PASSWORD_POLICY } from '../../common/password-policy';

/**
 * The mock API shared by every console test. Tests add handlers on the paths the console
 * calls (`/api/v1/signin`, ...) with `server.use(...)`; anything unhandled fails the test.
 *
 * The app bar's notification bell calls on every signed-in screen; its answers default to "no
 * notifications" here (a test about notifications overrides them), so that every other screen's
 * test need not mock the bell. The same goes for the password rules of the new-password forms.
 */
export const server = setupServer(
  http.get('/api/v1/notifications/count', () => HttpResponse.json({ message: 'Notification count', data: { unread: 0, total: 0 } })),
  http.get('/api/v1/notifications', () => HttpResponse.json({ message: 'Latest notifications', data: [] })),
  // The password rules the new-password forms show (the company's service settings): the default ones unless a test says otherwise.
  http.get('/api/v1/settings/password-policy', () => HttpResponse.json({ message: 'Password policy', data: DEFAULT_PASSWORD_POLICY })),
  // The company profile, which an admin's app bar reads to learn whether there is a logo: unknown unless a test says otherwise.
  http.get('/api/v1/company', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  // The user's language, which the app bar reads on every signed-in screen: none kept unless a test says otherwise.
  http.get('/api/v1/user/preferences/locale', () => HttpResponse.json({ message: 'Preference', data: { locale: null } })),
  // The profile's two-factor status and own sessions: answered as a server without those calls unless a test says otherwise.
  http.get('/api/v1/user/otp/status', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  http.get('/api/v1/user/sessions', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  // The live stream: answered as a server without it unless a test says otherwise (the console then polls).
  http.get('/api/v1/events', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  // Company sign-up, the dashboard's getting-started checklist and whom to ask for access: answered as a server without them unless a test says otherwise.
  http.get('/api/v1/company/signup', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  http.get('/api/v1/company/getting-started', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  http.get('/api/v1/company/admins', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
);
