import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { CompanyProfile } from '../../../common/schemas/company';
import { alerts } from '../../../providers/alerts';
import { companyLogo } from '../../../providers/companyLogo';
import { getStoredUser } from '../../../providers/storage';
import type { SessionUser } from '../../../providers/types';
import { CompanyLogo } from '../../../src/app/layout/CompanyLogo';
import { companyForm } from '../../../src/pages/company/companyForm';
import { field } from '../auth/helpers';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { renderRegisteredPage } from './renderRegisteredPage';

const API = '/api/v1';
const TIMEOUT_MS = 30_000;
configure({ asyncUtilTimeout: 10_000 });

const admin: SessionUser = {
  id: 'u-ada',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Admin',
  isAdmin: true,
  companyName: 'Acme',
  companyHostname: 'acme',
  accessToken: 'token-ada',
  token: 'token-ada',
  auth: true,
  navItems: { userNavItemJson: { items: [] } },
  impersonator: null,
};

const reader: SessionUser = {
  ...admin,
  id: 'u-rita',
  email: 'rita@acme.test',
  isAdmin: false,
  accessToken: 'token-rita',
  token: 'token-rita',
};

function acme(overrides: Partial<CompanyProfile> = {}): CompanyProfile {
  return {
    id: 'c-acme',
    name: 'Acme',
    hostname: 'acme',
    contactEmail: 'hello@acme.test',
    phone: null,
    website: 'https://acme.example',
    addressLine: null,
    city: 'London',
    postalCode: null,
    country: 'GB',
    timezone: 'Europe/London',
    hasLogo: true,
    logoUrl: '/api/v1/company/logo?v=1111222233334444',
    createdAt: '2026-10-01T08:00:00.000Z',
    updatedAt: '2026-10-01T08:00:00.000Z',
    ...overrides,
  };
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  token: string | null;
}

/** GET and PUT /company over one stored profile; multipart bodies are recorded field by field, files by type. */
function companyApi(profile: CompanyProfile = acme(), policies: { resource: string; actions: string[] }[] = []) {
  const sent: Sent[] = [];
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  let stored = { ...profile };
  let saves = 0;
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(API.length);
      const type = request.headers.get('content-type') ?? '';
      let body: unknown;
      if (type.includes('multipart/form-data')) {
        const form = await request.clone().formData();
        // A file part by its type only: jsdom's File reaches the test's fetch without its name or bytes.
        body = Object.fromEntries(
          [...form.entries()].map(([key, value]) => [key, typeof value === 'string' ? value : { file: value.type }]),
        );
      }
      sent.push({ method: request.method, path, body, token: request.headers.get('x-access-token') });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/authorization/user/policies`, ({ request }) =>
      HttpResponse.json({ message: 'Policies', data: { isAdmin: request.headers.get('x-access-token') === admin.accessToken, policies } }),
    ),
    http.get(`${API}/company`, () => HttpResponse.json({ message: 'Company profile', data: stored })),
    http.put(`${API}/company`, async ({ request }) => {
      const form = await request.formData();
      const next: CompanyProfile = { ...stored };
      for (const [key, value] of form.entries()) {
        if (typeof value !== 'string') continue;
        if (key === 'removeLogo' && value === 'true') Object.assign(next, { hasLogo: false, logoUrl: null });
        else if (key !== 'removeLogo') Object.assign(next, { [key]: value === '' ? null : value });
      }
      saves += 1;
      if (form.get('logo')) Object.assign(next, { hasLogo: true, logoUrl: `/api/v1/company/logo?v=${String(saves).repeat(16)}` });
      next.updatedAt = new Date(Date.UTC(2026, 10, 1, 0, saves)).toISOString();
      stored = next;
      return HttpResponse.json({ message: 'The company profile has been saved', data: stored });
    }),
  );
  return {
    stored: () => stored,
    puts: () => sent.filter((call) => call.method === 'PUT' && call.path === '/company'),
    failWith: (pattern: RegExp, status: number, message: string) => failures.push({ pattern, status, message }),
  };
}

/** The console's page registry rendered as MainApp renders it, at /company, under an app bar with the logo. */
function renderCompanyPage(user: SessionUser = admin) {
  return renderRegisteredPage('/company', {
    user,
    header: (
      <header data-testid="appbar">
        <CompanyLogo />
      </header>
    ),
  });
}

const appBarLogo = () => within(screen.getByTestId('appbar')).queryByRole('img');
/** The logo area of the page (the app bar shows the logo too). */
const logoArea = () => within(screen.getByTestId('logo-drop'));

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
  companyLogo.reset();
});
afterEach(() => {
  URL.createObjectURL = originalCreate;
  URL.revokeObjectURL = originalRevoke;
  alerts.clear();
});

const svgFile = () => new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' });
const pngFile = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4])], 'logo.png', { type: 'image/png' });

describe('the company page', { timeout: TIMEOUT_MS }, () => {
  it('loads GET /company into the form, with the host name read-only and the current logo by its version', async () => {
    companyApi();
    renderCompanyPage();
    expect(await screen.findByRole('heading', { name: 'Company profile' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Company name')).toHaveValue('Acme');
    expect(screen.getByLabelText('Contact email')).toHaveValue('hello@acme.test');
    expect(screen.getByLabelText('Website')).toHaveValue('https://acme.example');
    expect(screen.getByLabelText('City')).toHaveValue('London');
    expect(screen.getByLabelText('Country')).toHaveValue('United Kingdom (GB)');
    expect(screen.getByLabelText('Time zone')).toHaveValue('Europe/London');
    const hostname = screen.getByLabelText('Host name');
    expect(hostname).toHaveValue('acme');
    expect(hostname).toHaveAttribute('readonly');
    expect(screen.getByText('What your users type to sign in. It cannot be changed.')).toBeInTheDocument();
    // The id names the folders an operator grants the company (FILES_ROOTS): shown, never edited.
    const id = screen.getByLabelText('Company id');
    expect(id).toHaveValue('c-acme');
    expect(id).toHaveAttribute('readonly');

    const logo = logoArea().getByRole('img', { name: 'Logo of Acme' });
    expect(logo).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme&v=1111222233334444');
    expect(screen.getByText('PNG, JPEG or SVG, at most 512 KB. It shows in the app bar and on the sign-in page.')).toBeInTheDocument();
    // The profile read tells the app bar which logo to show.
    await waitFor(() => expect(appBarLogo()).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme&v=1111222233334444'));
    expect(screen.queryByText('You can read the company profile; changing it needs the permission to update it.')).not.toBeInTheDocument();
  });

  it("refuses a file that is not a logo before sending it, then saves fields and logo as one multipart PUT and shows the server's message", async () => {
    const api = companyApi();
    renderCompanyPage();
    const city = await screen.findByLabelText('City');
    const picker = screen.getByLabelText('Logo file');

    await userEvent.upload(picker, new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }), { applyAccept: false });
    expect(await screen.findByText('The logo must be a PNG, JPEG or SVG image')).toBeInTheDocument();
    await userEvent.upload(picker, new File([new Uint8Array(512 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be at most 512 KB')).toBeInTheDocument();
    expect(objectUrls).toHaveLength(0);

    await userEvent.clear(city);
    await userEvent.type(city, 'Manchester');
    await userEvent.upload(picker, pngFile());
    // The chosen file is previewed before it is saved.
    const preview = await screen.findByRole('img', { name: 'The new logo, not saved yet' });
    expect(preview).toHaveAttribute('src', 'blob:test/1');
    expect(objectUrls[0]).toBeInstanceOf(File);

    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByText('The company profile has been saved')).toBeInTheDocument();
    expect(api.puts()).toEqual([
      { method: 'PUT', path: '/company', token: 'token-ada', body: { city: 'Manchester', logo: { file: 'image/png' } } },
    ]);
    // The page and the app bar show the saved logo under its new address.
    await waitFor(() =>
      expect(logoArea().getByRole('img', { name: 'Logo of Acme' })).toHaveAttribute(
        'src',
        '/api/v1/company/logo?hostname=acme&v=1111111111111111',
      ),
    );
    expect(appBarLogo()).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme&v=1111111111111111');
    expect(screen.getByLabelText('City')).toHaveValue('Manchester');
  });

  it('takes a logo dropped on the logo area', async () => {
    const api = companyApi(acme({ hasLogo: false, logoUrl: null }));
    renderCompanyPage();
    const area = await screen.findByTestId('logo-drop');
    expect(within(area).getByText('No logo yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove logo' })).not.toBeInTheDocument();
    await waitFor(() => expect(appBarLogo()).toBeNull());

    fireEvent.dragOver(area, { dataTransfer: { files: [svgFile()] } });
    fireEvent.drop(area, { dataTransfer: { files: [svgFile()] } });
    expect(await within(area).findByRole('img', { name: 'The new logo, not saved yet' })).toHaveAttribute('src', 'blob:test/1');
    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByText('The company profile has been saved')).toBeInTheDocument();
    expect(api.puts().map((call) => call.body)).toEqual([{ logo: { file: 'image/svg+xml' } }]);
    await waitFor(() => expect(appBarLogo()).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme&v=1111111111111111'));
  });

  it('removes the logo with removeLogo=true, and the app bar stops showing it', async () => {
    const api = companyApi();
    renderCompanyPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove logo' }));
    expect(screen.getByText('The logo will be removed when you save')).toBeInTheDocument();
    expect(logoArea().queryByRole('img', { name: 'Logo of Acme' })).not.toBeInTheDocument();
    // Changing one's mind brings it back.
    await userEvent.click(screen.getByRole('button', { name: 'Keep the current logo' }));
    expect(logoArea().getByRole('img', { name: 'Logo of Acme' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove logo' }));

    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByText('The company profile has been saved')).toBeInTheDocument();
    expect(api.puts().map((call) => call.body)).toEqual([{ removeLogo: 'true' }]);
    expect(await screen.findByText('No logo yet')).toBeInTheDocument();
    await waitFor(() => expect(appBarLogo()).toBeNull());
  });

  it('checks fields before sending, and shows a refusal of the server on the field it names', async () => {
    const api = companyApi();
    renderCompanyPage();
    const name = await screen.findByLabelText('Company name');
    await userEvent.clear(name);
    const website = screen.getByLabelText('Website');
    await userEvent.clear(website);
    await userEvent.type(website, 'ftp://files.acme.example');
    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(screen.getByText('must be a web address starting with https:// or http://, such as https://acme.example')).toBeInTheDocument();
    expect(api.puts()).toEqual([]);

    await userEvent.type(name, 'Acme Industries');
    await userEvent.clear(website);
    await userEvent.type(website, 'https://acme.example/new');
    api.failWith(
      /^PUT \/company/,
      400,
      'website: this address does not answer; logo: the SVG is not well-formed XML (line 1, column 9: …)',
    );
    await userEvent.upload(screen.getByLabelText('Logo file'), svgFile());
    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('website: this address does not answer');
    expect(await screen.findByText('this address does not answer')).toBeInTheDocument();
    expect(screen.getByText('the SVG is not well-formed XML (line 1, column 9: …)')).toBeInTheDocument();
    expect(api.puts().map((call) => call.body)).toEqual([
      { name: 'Acme Industries', website: 'https://acme.example/new', logo: { file: 'image/svg+xml' } },
    ]);
    expect(api.stored().name).toBe('Acme');
  });

  it('a new name is kept in the stored session user; saving nothing sends nothing', async () => {
    const api = companyApi();
    renderCompanyPage();
    // A space after the city is edited away by the rules: nothing is left to send.
    await userEvent.type(await screen.findByLabelText('City'), ' ');
    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByText('Nothing to change')).toBeInTheDocument();
    expect(api.puts()).toEqual([]);

    const name = screen.getByLabelText('Company name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Acme Industries');
    await userEvent.click(screen.getByRole('button', { name: 'Save company profile' }));
    expect(await screen.findByText('The company profile has been saved')).toBeInTheDocument();
    expect(getStoredUser()?.companyName).toBe('Acme Industries');
  });

  it('is read-only for a user who may read the company but not update it', async () => {
    companyApi(acme(), [{ resource: 'company', actions: ['read'] }]);
    renderCompanyPage(reader);
    expect(await screen.findByText('You can read the company profile; changing it needs the permission to update it.')).toBeInTheDocument();
    expect(screen.getByLabelText('Company name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('City')).toHaveAttribute('readonly');
    expect(logoArea().getByRole('img', { name: 'Logo of Acme' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save company profile' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Choose a file' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove logo' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Logo file')).toBeDisabled();
  });
});

describe('the company page body', () => {
  it('holds the fields that changed (an emptied one as ""), the chosen file itself, or removeLogo', () => {
    const saved = acme();
    const file = pngFile();
    const values = {
      id: 'c-acme',
      name: 'Acme',
      contactEmail: '',
      phone: '',
      website: 'https://acme.example',
      addressLine: '',
      city: 'Leeds',
      postalCode: '',
      country: 'GB',
      timezone: 'Europe/London',
    };
    const form = companyForm({ ...values, contactEmail: '', logo: file }, saved);
    expect([...form.keys()]).toEqual(['contactEmail', 'city', 'logo']);
    expect(form.get('contactEmail')).toBe('');
    expect(form.get('city')).toBe('Leeds');
    const sent = form.get('logo') as File;
    expect([sent.name, sent.type, sent.size]).toEqual(['logo.png', 'image/png', 8]);

    expect([...companyForm({ ...values, city: 'London', contactEmail: 'hello@acme.test', removeLogo: true }, saved).entries()]).toEqual([
      ['removeLogo', 'true'],
    ]);
    // Removing a logo the company does not have sends nothing.
    expect([
      ...companyForm(
        { ...values, city: 'London', contactEmail: 'hello@acme.test', removeLogo: true },
        acme({ hasLogo: false, logoUrl: null }),
      ).keys(),
    ]).toEqual([]);
  });
});

describe('the sign-in page', () => {
  it('shows the logo of the host name typed once it rests, and nothing for a host name without one', async () => {
    const user = userEvent.setup();
    renderConsole('/auth/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByAltText(/^Logo of/)).toBeNull();

    await user.type(field('Company host name'), 'Ac me');
    await act(() => new Promise((resolve) => setTimeout(resolve, 600)));
    // Not a valid host name: nothing is asked for.
    expect(screen.queryByAltText(/^Logo of/)).toBeNull();

    await user.clear(field('Company host name'));
    await user.type(field('Company host name'), 'Acme');
    // Not while the name is still being typed...
    expect(screen.queryByAltText(/^Logo of/)).toBeNull();
    // ...but once it has rested, for the whole name only.
    const logo = await screen.findByAltText('Logo of acme');
    expect(logo).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme');
    expect(screen.getAllByAltText(/^Logo of/)).toHaveLength(1);
    // Hidden until it has loaded, so a missing logo never shows as a broken image.
    expect(logo).not.toBeVisible();
    fireEvent.load(logo);
    expect(logo).toBeVisible();

    await user.clear(field('Company host name'));
    await user.type(field('Company host name'), 'globex');
    const other = await screen.findByAltText('Logo of globex');
    fireEvent.error(other);
    expect(other).not.toBeVisible();
    expect(screen.queryByAltText('Logo of acme')).toBeNull();
  });
});
