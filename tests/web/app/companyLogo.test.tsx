import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { companyLogo, NO_LOGO_MEMORY_MS } from '../../../providers/companyLogo';
import { CompanyLogo } from '../../../src/app/layout/CompanyLogo';
import { server } from '../msw';
import { admin, API, mockPreferencesServer, plainUser, signIn } from './fixtures';
import { renderInConsole, RENDER_TIMEOUT_MS } from './render';

/** The app bar's company logo: asked for only when the company has one. */

function companyProfile(logoUrl: string | null) {
  let reads = 0;
  server.use(
    http.get(`${API}/company`, () => {
      reads += 1;
      return HttpResponse.json({
        message: 'Company profile',
        data: { name: 'Acme', hostname: 'acme', hasLogo: Boolean(logoUrl), logoUrl },
      });
    }),
  );
  return { reads: () => reads };
}

const logo = () => screen.queryByTestId('appbar-company-logo');

beforeEach(() => {
  companyLogo.reset();
  mockPreferencesServer();
});

describe('the company logo in the app bar', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('is not requested for a company without a logo: the profile says so first', async () => {
    signIn(admin);
    const profile = companyProfile(null);
    const view = renderInConsole(<CompanyLogo />);
    await waitFor(() => expect(profile.reads()).toBe(1));
    await waitFor(() => expect(companyLogo.of('acme')).toBeNull());
    expect(logo()).toBeNull();
    expect(document.querySelector('img')).toBeNull();

    // Drawn again (another page, a reload of the frame): still nothing asked.
    view.unmount();
    renderInConsole(<CompanyLogo />);
    expect(logo()).toBeNull();
    expect(profile.reads()).toBe(1);
  });

  it('is requested under its version when the company has one', async () => {
    signIn(admin);
    companyProfile('/api/v1/company/logo?v=1111222233334444');
    renderInConsole(<CompanyLogo />);
    await waitFor(() => expect(logo()).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme&v=1111222233334444'));
  });

  it('is tried once by a user who cannot read the profile, and a 404 is remembered for a day', async () => {
    signIn(plainUser);
    const profile = companyProfile(null);
    const first = renderInConsole(<CompanyLogo />);
    const image = await waitFor(() => {
      const found = logo();
      expect(found).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme');
      return found!;
    });
    image.dispatchEvent(new Event('error'));
    await waitFor(() => expect(logo()).toBeNull());
    expect(profile.reads()).toBe(0);
    first.unmount();

    // A new tab of the same browser: nothing is asked for.
    companyLogo.reset();
    const second = renderInConsole(<CompanyLogo />);
    expect(logo()).toBeNull();
    second.unmount();

    // A day later it is tried again (the company may have added one).
    companyLogo.reset();
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + NO_LOGO_MEMORY_MS + 1000);
    try {
      renderInConsole(<CompanyLogo />);
      expect(logo()).toHaveAttribute('src', '/api/v1/company/logo?hostname=acme');
    } finally {
      clock.mockRestore();
    }
  });
});
