import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { alerts } from '../../../../providers/alerts';
import { getStoredUser } from '../../../../providers/storage';
import type { SessionUser } from '../../../../providers/types';
import { users } from '../../../../resources/users';
import type { User } from '../../../../resources/users/types';
import { profileForm } from '../../../../src/pages/profile/ProfileDetails';
import { server } from '../../msw';
import { renderRegisteredPage } from '../renderRegisteredPage';

const API = '/api/v1';
const TIMEOUT_MS = 30_000;
configure({ asyncUtilTimeout: 10_000 });

const bob: SessionUser = {
  id: 'u-bob',
  email: 'bob@acme.test',
  firstName: 'Bob',
  lastName: 'Builder',
  isAdmin: false,
  companyHostname: 'acme',
  accessToken: 'token-bob',
  token: 'token-bob',
  auth: true,
  navItems: { userNavItemJson: { items: [] } },
  impersonator: null,
};

function bobRow(overrides: Partial<User> = {}): User {
  return {
    id: 'u-bob',
    email: 'bob@acme.test',
    username: 'bob',
    firstName: 'Bob',
    lastName: 'Builder',
    phone: null,
    status: 'active',
    isActive: true,
    roleId: 'r-member',
    roleName: 'Member',
    isAdmin: false,
    workspaces: [],
    otpEnabled: false,
    otpRequired: false,
    aiNotification: false,
    hasAvatar: true,
    lastLoginAt: null,
    createdAt: '2026-10-01T08:00:00.000Z',
    updatedAt: '2026-10-01T08:00:00.000Z',
    createdBy: null,
    ...overrides,
  };
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  token: string | null;
}

/** The own-profile routes over one stored row; multipart bodies are recorded field by field, files by name, type and size. */
function profileApi(row: User = bobRow()) {
  const sent: Sent[] = [];
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  let stored = { ...row };
  let updates = 0;
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length);
      const type = request.headers.get('content-type') ?? '';
      let body: unknown;
      if (type.includes('application/json')) body = await request.clone().json();
      else if (type.includes('multipart/form-data')) {
        const form = await request.clone().formData();
        const entries = await Promise.all(
          // A file part by its type only: jsdom's File reaches the test's fetch without its name or bytes (a browser's keeps them;
          // profileForm's own test below checks the very file goes in).
          [...form.entries()].map(async ([key, value]) => [key, typeof value === 'string' ? value : { file: value.type }] as const),
        );
        body = Object.fromEntries(entries);
      }
      sent.push({ method: request.method, path, body, token: request.headers.get('x-access-token') });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/user/profile`, () =>
      HttpResponse.json({
        message: 'Profile',
        user: { id: stored.id, email: stored.email, companyHostname: 'acme', roleName: stored.roleName },
        data: stored,
      }),
    ),
    http.put(`${API}/user/profile`, async ({ request }) => {
      const form = await request.formData();
      for (const name of ['firstName', 'lastName', 'username', 'phone'] as const) {
        const value = form.get(name);
        if (typeof value === 'string') stored = { ...stored, [name]: value === '' ? null : value };
      }
      if (form.get('avatar')) stored.hasAvatar = true;
      if (form.get('removeAvatar') === 'true') stored.hasAvatar = false;
      updates += 1;
      stored.updatedAt = new Date(Date.UTC(2026, 10, 1, 0, updates)).toISOString();
      return HttpResponse.json({ message: 'Your profile has been saved', data: stored });
    }),
    http.get(`${API}/user/avatar/:id`, () =>
      stored.hasAvatar
        ? new HttpResponse(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'content-type': 'image/png' } })
        : HttpResponse.json({ message: 'Avatar not found' }, { status: 404 }),
    ),
    http.get(`${API}/users/username/check/:name`, ({ params }) => {
      const available = !['taken', 'ada'].includes(String(params.name));
      return HttpResponse.json({ message: 'Checked', data: { available } });
    }),
    http.put(`${API}/user/notification`, async ({ request }) => {
      const { aiNotification } = (await request.json()) as { aiNotification: boolean };
      stored.aiNotification = aiNotification;
      return HttpResponse.json({
        message: aiNotification ? 'AI notifications are on' : 'AI notifications are off',
        data: { aiNotification },
      });
    }),
    http.put(`${API}/user/mpin/create/:id`, () => HttpResponse.json({ message: 'Your MPIN has been saved' })),
    http.get(`${API}/user/profile/cards/:id/:days`, () =>
      HttpResponse.json({ message: 'Profile cards', data: { cards: [{ key: 'signins', label: 'Sign-ins', value: 7 }] } }),
    ),
  );
  return {
    sent,
    stored: () => stored,
    seen: (pattern?: RegExp) => sent.map((call) => `${call.method} ${call.path}`).filter((line) => !pattern || pattern.test(line)),
    bodiesOf: (pattern: RegExp) => sent.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern: RegExp, status: number, message: string) => failures.push({ pattern, status, message }),
  };
}

/** The console's page registry rendered as MainApp renders it, at /profile. */
function renderProfile() {
  return renderRegisteredPage('/profile', { user: bob, resources: [users] });
}

let objectUrls: Blob[] = [];
const originalCreate = URL.createObjectURL;
const originalRevoke = URL.revokeObjectURL;
beforeEach(() => {
  objectUrls = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    objectUrls.push(blob);
    return `blob:test/${objectUrls.length}`;
  });
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  URL.createObjectURL = originalCreate;
  URL.revokeObjectURL = originalRevoke;
  alerts.clear();
});

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4])], 'me.png', { type: 'image/png' });

describe('the own profile screen', { timeout: TIMEOUT_MS }, () => {
  it('loads GET /user/profile into the form and shows the picture read with the token through an object URL', async () => {
    const api = profileApi(bobRow({ phone: '+44 20 7946 0958' }));
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'My profile' })).toBeInTheDocument();
    expect(await screen.findByLabelText('First name')).toHaveValue('Bob');
    expect(screen.getByLabelText('Last name')).toHaveValue('Builder');
    expect(screen.getByLabelText('Username')).toHaveValue('bob');
    expect(screen.getByLabelText('Phone')).toHaveValue('+44 20 7946 0958');
    expect(screen.getByText(/bob@acme\.test · Role: Member/)).toBeInTheDocument();

    const picture = await screen.findByRole('img', { name: 'Bob Builder' });
    expect(picture).toHaveAttribute('src', 'blob:test/1');
    expect(objectUrls[0].type).toBe('image/png');
    const avatarCall = api.sent.find((call) => call.path === '/user/avatar/u-bob')!;
    expect(avatarCall.token).toBe('token-bob');

    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/auth/change-password');
    const activity = await screen.findByRole('region', { name: 'Activity over the last 30 days' });
    expect(within(activity).getByText('Sign-ins').closest('[data-card]')).toHaveTextContent('7');
  });

  it("saves the changed fields and the chosen picture as multipart PUT /user/profile and shows the server's message", async () => {
    const api = profileApi();
    renderProfile();
    const first = await screen.findByLabelText('First name');
    await userEvent.clear(first);
    await userEvent.type(first, 'Robert');
    await userEvent.type(screen.getByLabelText('Phone'), '+1 555 0100');

    // A file that is not a picture is refused here, before anything is sent.
    await userEvent.upload(screen.getByLabelText('Picture'), new File(['hello'], 'notes.txt', { type: 'text/plain' }), {
      applyAccept: false,
    });
    expect(await screen.findByText('The picture must be a PNG, JPEG or WebP image')).toBeInTheDocument();
    const huge = new File([new Uint8Array(1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Picture'), huge);
    expect(await screen.findByText('The picture must be at most 1 MB')).toBeInTheDocument();

    await userEvent.upload(screen.getByLabelText('Picture'), png());
    // The preview shows the chosen file before it is saved.
    await waitFor(() => expect(screen.getByRole('img', { name: 'Bob Builder' })).toHaveAttribute('src', `blob:test/${objectUrls.length}`));
    expect(objectUrls.at(-1)).toBeInstanceOf(File);
    expect(screen.getByText('PNG, JPEG or WebP, at most 1 MB')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Your profile has been saved')).toBeInTheDocument();
    expect(api.seen(/^PUT/)).toEqual(['PUT /user/profile']);
    expect(api.bodiesOf(/^PUT \/user\/profile/)).toEqual([{ firstName: 'Robert', phone: '+1 555 0100', avatar: { file: 'image/png' } }]);
    expect(api.stored().firstName).toBe('Robert');
    // The menu's name follows the saved one.
    expect(getStoredUser()?.firstName).toBe('Robert');
    // The picture is read again from the server.
    await waitFor(() => expect(api.seen(/avatar/)).toHaveLength(2));
  });

  it('a taken username is blocked before saving; a server refusal naming a field shows on it', async () => {
    const api = profileApi();
    renderProfile();
    const username = await screen.findByLabelText('Username');
    await userEvent.clear(username);
    await userEvent.type(username, 'taken');
    expect(await screen.findByText('Already taken')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('is already taken')).toBeInTheDocument();
    expect(api.seen(/^PUT/)).toEqual([]);

    api.failWith(/^PUT \/user\/profile/, 400, 'phone: must be a phone number such as +44 20 7946 0958');
    await userEvent.clear(username);
    await userEvent.type(username, 'bobby');
    expect(await screen.findByText('Available')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Phone'), '+1 555 0100');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('phone: must be a phone number such as +44 20 7946 0958');
    expect(await screen.findByText('must be a phone number such as +44 20 7946 0958')).toBeInTheDocument();
    expect(api.bodiesOf(/^PUT \/user\/profile/)).toEqual([{ username: 'bobby', phone: '+1 555 0100' }]);
    expect(api.stored().username).toBe('bob');
  });

  it('offers no MPIN and no AI-notification setting: nothing in the product reads them', async () => {
    const api = profileApi();
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'Security' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: /AI notifications/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/MPIN/)).not.toBeInTheDocument();
    expect(screen.queryByText(/MPIN|AI notification/)).not.toBeInTheDocument();
    expect(api.seen(/mpin|notification/)).toEqual([]);
  });
});

describe('the profile form body', () => {
  it('holds the text fields that changed (an emptied one as ""), the chosen file itself, or removeAvatar', () => {
    const saved = bobRow({ phone: '+44 20 7946 0958' });
    const picture = png();
    const form = profileForm({ firstName: 'Bob', lastName: 'Built', username: 'bob', phone: null, avatar: picture }, saved);
    expect([...form.keys()]).toEqual(['lastName', 'phone', 'avatar']);
    expect(form.get('lastName')).toBe('Built');
    expect(form.get('phone')).toBe('');
    const sent = form.get('avatar') as File;
    expect(sent.name).toBe('me.png');
    expect(sent.type).toBe('image/png');
    expect(sent.size).toBe(8);

    const removing = profileForm({ ...saved, removeAvatar: true }, saved);
    expect([...removing.entries()]).toEqual([['removeAvatar', 'true']]);
    expect([...profileForm({ ...saved }, saved).keys()]).toEqual([]);
  });
});
