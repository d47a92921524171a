import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminContext, memoryStore, TextInput } from 'react-admin';
import { Link, Route, Routes, useNavigate } from 'react-router';
import { CheckedForm } from '../../../src/framework/form/CheckedForm';
import { FormDialog } from '../../../src/framework/form/FormDialog';
import { consoleRouterProvider } from '../../../src/framework/form/routerProvider';
import { declaredProviders } from '../../../src/framework/providers';
import { ConsoleRouter } from '../../../src/shell/ConsoleRouter';
import { FRAMEWORK_TIMEOUT_MS, signIn, widgets } from './harness';

/**
 * Unsaved work is never dropped silently: a form with changes asks before the console's router
 * leaves it (links, Back), and a form in a dialog asks before it is closed.
 */

const UNSAVED = "Some of your changes weren't saved. Are you sure you want to ignore them?";

function DialogPage() {
  const [open, setOpen] = useState(true);
  return open ? (
    <FormDialog of={widgets} mode="create" title="New widget" onSubmit={() => undefined} onClose={() => setOpen(false)} />
  ) : (
    <p>Dialog closed</p>
  );
}

function GoBack() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      Back
    </button>
  );
}

function renderConsole(path: string) {
  window.history.replaceState(null, '', '/start');
  window.history.pushState(null, '', path);
  return render(
    <ConsoleRouter>
      <AdminContext
        store={memoryStore()}
        queryClient={new QueryClient()}
        routerProvider={consoleRouterProvider}
        {...declaredProviders([widgets])}
      >
        <Routes>
          <Route
            path="/edit"
            element={
              <CheckedForm resolver={undefined} onSubmit={() => undefined} record={{ id: 'w1', name: 'Sprocket' }}>
                <TextInput source="name" />
              </CheckedForm>
            }
          />
          <Route path="/dialog" element={<DialogPage />} />
          <Route path="/elsewhere" element={<p>Elsewhere</p>} />
          <Route path="/start" element={<p>Start page</p>} />
        </Routes>
        <Link to="/elsewhere">Leave</Link>
        <Link to="/edit">Edit</Link>
        <GoBack />
      </AdminContext>
    </ConsoleRouter>,
  );
}

let confirm: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  signIn();
  confirm = vi.spyOn(window, 'confirm');
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a form with unsaved changes', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('asks before a link leaves it, and stays when the user says no', async () => {
    confirm.mockReturnValue(false);
    renderConsole('/edit');
    await userEvent.type(await screen.findByLabelText('Name'), ' 2');
    await userEvent.click(screen.getByRole('link', { name: 'Leave' }));
    await waitFor(() => expect(confirm).toHaveBeenCalledWith(UNSAVED));
    expect(window.location.pathname).toBe('/edit');
    expect(screen.getByLabelText('Name')).toHaveValue('Sprocket 2');
    expect(screen.queryByText('Elsewhere')).not.toBeInTheDocument();
  });

  it('leaves when the user agrees to drop the changes', async () => {
    confirm.mockReturnValue(true);
    renderConsole('/edit');
    await userEvent.type(await screen.findByLabelText('Name'), ' 2');
    await userEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/elsewhere');
  });

  it('asks before Back leaves it too', async () => {
    confirm.mockReturnValue(false);
    renderConsole('/start');
    await userEvent.click(await screen.findByRole('link', { name: 'Edit' }));
    await userEvent.type(await screen.findByLabelText('Name'), ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(confirm).toHaveBeenCalledWith(UNSAVED));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(window.location.pathname).toBe('/edit');
    expect(screen.getByLabelText('Name')).toHaveValue('Sprocket 2');
    expect(screen.queryByText('Start page')).not.toBeInTheDocument();

    // Agreeing the second time goes back after all.
    confirm.mockReturnValue(true);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('Start page')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/start');
  });

  it('leaves freely when nothing was changed', async () => {
    renderConsole('/edit');
    await screen.findByLabelText('Name');
    await userEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(confirm).not.toHaveBeenCalled();
  });
});

describe('a form in a dialog with unsaved changes', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('asks before Cancel or Escape closes it', async () => {
    confirm.mockReturnValue(false);
    renderConsole('/dialog');
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Cog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(confirm).toHaveBeenCalledWith(UNSAVED);
    expect(screen.getByRole('dialog', { name: 'New widget' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('dialog', { name: 'New widget' })).toBeInTheDocument();

    confirm.mockReturnValue(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Dialog closed')).toBeInTheDocument();
  });

  it('closes without asking when nothing was typed', async () => {
    renderConsole('/dialog');
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Dialog closed')).toBeInTheDocument();
    expect(confirm).not.toHaveBeenCalled();
  });
});
