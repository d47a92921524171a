import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn, widget, widgetApi, widgets, widgetSchema } from './harness';

describe('declared forms', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('edit: the zod schema blocks bad input before anything is sent; a good submit sends the changed fields to the update route', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(2)]);
    const view = renderDeclared([widgets], { path: '/widgets/w-2' });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Widget 0002');
    expect(screen.getByLabelText('Email')).toHaveValue('w2@acme.test');
    expect(screen.getByLabelText('Size')).toHaveValue(2);
    // Fields not in the edit form are not inputs.
    expect(screen.queryByLabelText('Kind')).toBeNull();

    await userEvent.clear(name);
    await userEvent.type(name, 'ab');
    const email = screen.getByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('must be a valid email address')).toBeInTheDocument();
    expect(api.seen(/PUT/)).toEqual([]);

    await userEvent.type(name, 'c Prime');
    await userEvent.clear(email);
    await userEvent.type(email, 'prime@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/PUT/)).toEqual(['PUT /widget/w-2']));
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ name: 'abc Prime', email: 'prime@acme.test' });
    await waitFor(() => expect(view.location().pathname).toBe('/widgets'));
    // The server's message is the alert.
    expect(await screen.findByText('Widget saved')).toBeInTheDocument();
    expect(await screen.findByText('abc Prime')).toBeInTheDocument();
  });

  it("edit: the server's 400 is shown as the error alert and on the field it names; nothing is left half-saved", async () => {
    signIn();
    const api = widgetApi([widget(1)]);
    api.failWith(/PUT \/widget\/w-1/, 400, 'email: this email is taken');
    const view = renderDeclared([widgets], { path: '/widgets/w-1' });
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'taken@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('email: this email is taken');
    expect(await screen.findByText('this email is taken')).toBeInTheDocument();
    expect(view.location().pathname).toBe('/widgets/w-1');
    expect(api.rows[0].email).toBe('w1@acme.test');
  });

  it('create: validates, then posts the create fields to the create route, empty optional ones left out', async () => {
    signIn();
    const api = widgetApi([]);
    const view = renderDeclared([widgets], { path: '/widgets/create' });
    const name = await screen.findByLabelText('Name');
    await userEvent.type(name, 'New widget');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('must be a valid email address')).toBeInTheDocument();
    expect(api.seen(/POST/)).toEqual([]);

    await userEvent.type(screen.getByLabelText('Email'), 'new@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/POST/)).toEqual(['POST /widget']));
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'New widget', email: 'new@acme.test' });
    await waitFor(() => expect(view.location().pathname).toBe('/widgets'));
    expect(await screen.findByText('Widget created')).toBeInTheDocument();
  });

  it('create: a problem of the whole form is shown beside the buttons and nothing is sent', async () => {
    signIn();
    const api = widgetApi([]);
    const schema = widgetSchema.refine((w) => !w.email.startsWith(w.name.toLowerCase()), 'the email must not start with the name');
    renderDeclared([{ ...widgets, forms: { create: { schema } } }], { path: '/widgets/create' });
    await userEvent.type(await screen.findByLabelText('Name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('the email must not start with the name')).toBeInTheDocument();
    expect(api.seen(/POST/)).toEqual([]);
  });
});
