import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ONBOARDING_SUCCESS_MESSAGE } from '../../../common/messages';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { field, fieldError } from './helpers';

/** The auth chunk loads on first use: seconds on a busy machine. */
const CHUNK = { timeout: 30_000 };

const signupOpen = (open: boolean) =>
  http.get('/api/v1/company/signup', () => HttpResponse.json({ message: 'Company sign-up', data: { open } }));

describe('creating a company', { timeout: 90_000 }, () => {
  it('is offered on sign-in only while the server takes sign-ups', async () => {
    server.use(signupOpen(true));
    const { unmount } = renderConsole('/auth/signin');
    expect(await screen.findByRole('link', { name: 'New here? Create your company' }, CHUNK)).toHaveAttribute(
      'href',
      '/auth/create-company',
    );
    unmount();

    server.use(signupOpen(false));
    renderConsole('/auth/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'New here? Create your company' })).not.toBeInTheDocument();
  });

  it('says sign-up is closed on the screen itself, with no form', async () => {
    server.use(signupOpen(false));
    renderConsole('/auth/create-company');
    expect(await screen.findByText(/does not take new companies/, {}, CHUNK)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create company' })).not.toBeInTheDocument();
  });

  it('checks the form, calls POST /company, shows the fixed success text and leads to a filled sign-in', async () => {
    const bodies: unknown[] = [];
    server.use(
      signupOpen(true),
      http.post('/api/v1/company', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { message: 'Created', data: { companyId: 'c-1', companyHostname: 'initech', adminEmail: 'peter@initech.test' } },
          { status: 201 },
        );
      }),
    );
    renderConsole('/auth/create-company');
    await screen.findByRole('button', { name: 'Create company' }, CHUNK);
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));
    expect(fieldError('Company name')).toBe('Company name is required');
    expect(bodies).toEqual([]);

    await userEvent.type(field('Company name'), 'Initech');
    await userEvent.type(field('Company host name'), 'Initech');
    await userEvent.type(field('Your first name'), 'Peter');
    await userEvent.type(field('Your last name'), 'Gibbons');
    await userEvent.type(field('Your work email'), 'peter@initech.test');
    await userEvent.type(field('New password'), 'Initech-pass-2026');
    await userEvent.type(field('Confirm new password'), 'Initech-pass-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Create company' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(ONBOARDING_SUCCESS_MESSAGE);
    expect(bodies).toEqual([
      {
        companyName: 'Initech',
        companyHostname: 'initech',
        firstName: 'Peter',
        lastName: 'Gibbons',
        adminEmail: 'peter@initech.test',
        adminPassword: 'Initech-pass-2026',
      },
    ]);
    await userEvent.click(screen.getByRole('link', { name: 'Go now' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() => expect(field('Email')).toHaveValue('peter@initech.test'));
    expect(field('Company host name')).toHaveValue('initech');
    expect(field('Password')).toHaveFocus();
  });
});
