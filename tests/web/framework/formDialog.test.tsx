import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminContext, memoryStore, RecordContextProvider, TestMemoryRouter, TextInput } from 'react-admin';
import { z } from 'zod';
import { declaredProviders } from '../../../src/framework/providers';
import { FormDialog, type FormDialogAnswer } from '../../../src/framework/form/FormDialog';
import { FRAMEWORK_TIMEOUT_MS, signIn, widget, widgets, type Widget } from './harness';

/**
 * The form-in-a-dialog of the framework: a declared resource's create fields edited in a dialog,
 * checked by the declared schema; the save's answer closes it, or shows on the field it names,
 * or as the form's problem.
 */

type Submit = (values: Record<string, unknown>) => Promise<FormDialogAnswer>;

/** Opens the dialog from a button, as a page does; `closed` counts its closings. */
function WidgetDialog({ onSubmit, closed }: { onSubmit: Submit; closed: () => void }) {
  const [open, setOpen] = useState(true);
  const close = () => {
    closed();
    setOpen(false);
  };
  return open ? (
    <FormDialog of={widgets} mode="create" title="New widget" onSubmit={onSubmit} onClose={close} />
  ) : (
    <button type="button" onClick={() => setOpen(true)}>
      Again
    </button>
  );
}

function renderDialog(onSubmit: Submit) {
  const closed = vi.fn();
  render(
    <TestMemoryRouter>
      <AdminContext store={memoryStore()} queryClient={new QueryClient()} {...declaredProviders([widgets])}>
        {/* Opened from a page showing another widget: that record is not what the dialog edits. */}
        <RecordContextProvider value={widget(7)}>
          <WidgetDialog onSubmit={onSubmit} closed={closed} />
        </RecordContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  return closed;
}

async function fillGoodWidget(dialog: HTMLElement) {
  await userEvent.type(within(dialog).getByLabelText('Name'), '  Sprocket  ');
  await userEvent.type(within(dialog).getByLabelText('Email'), 'sprocket@acme.test');
}

describe('a form in a dialog', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  beforeEach(() => {
    signIn();
  });

  it("renders the declaration's create fields, checks them by its schema before onSubmit, and closes on a save", async () => {
    const submit = vi.fn<Submit>().mockResolvedValue(undefined);
    const closed = renderDialog(submit);
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    expect(within(dialog).getByLabelText('Name')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Size')).toBeInTheDocument();
    // Fields not in the create form are not inputs.
    expect(within(dialog).queryByLabelText('Kind')).toBeNull();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');

    await userEvent.type(within(dialog).getByLabelText('Name'), 'ab');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('at least 3 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('must be a valid email address')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();

    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.clear(within(dialog).getByLabelText('Email'));
    await fillGoodWidget(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    // The schema's own values (the name trimmed).
    expect(submit.mock.calls[0][0]).toMatchObject({ name: 'Sprocket', email: 'sprocket@acme.test' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('a server message naming one of its fields shows on that field, and the dialog stays open', async () => {
    const submit = vi.fn<Submit>().mockResolvedValue('email: this email is taken');
    const closed = renderDialog(submit);
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    await fillGoodWidget(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('this email is taken')).toBeInTheDocument();
    const email = within(dialog).getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(closed).not.toHaveBeenCalled();
  });

  it("another message is the form's problem, beside the buttons; a message naming no field of the form too", async () => {
    const submit = vi
      .fn<Submit>()
      .mockResolvedValueOnce('The widget store is full')
      .mockResolvedValueOnce('kind: must be one of the kinds');
    const closed = renderDialog(submit);
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    await fillGoodWidget(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The widget store is full');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('kind: must be one of the kinds'));
    expect(within(dialog).getByLabelText('Email')).not.toHaveAttribute('aria-invalid', 'true');
    expect(closed).not.toHaveBeenCalled();
  });

  it('Cancel closes it without a save, once the user agrees to drop what was typed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const submit = vi.fn<Submit>();
    const closed = renderDialog(submit);
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Half typed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(submit).not.toHaveBeenCalled();
    confirm.mockRestore();
  });

  it('Save is blocked while the save runs, and the dialog then closes', async () => {
    let finish: (answer: FormDialogAnswer) => void = () => undefined;
    const submit = vi.fn<Submit>(() => new Promise((resolve) => (finish = resolve)));
    const closed = renderDialog(submit);
    const dialog = await screen.findByRole('dialog', { name: 'New widget' });
    await fillGoodWidget(dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(closed).not.toHaveBeenCalled();
    finish(null);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(closed).toHaveBeenCalledTimes(1);
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('takes its inputs as children, checked by the given schema; `false` keeps it open with nothing more said', async () => {
    const submit = vi.fn<Submit>().mockResolvedValue(false);
    const closed = vi.fn();
    render(
      <TestMemoryRouter>
        <AdminContext store={memoryStore()} queryClient={new QueryClient()} {...declaredProviders([widgets])}>
          <FormDialog
            title="Rename"
            schema={z.object({ label: z.string().trim().min(1, 'is required') })}
            defaultValues={{ label: '' }}
            saveLabel="Rename it"
            onSubmit={submit}
            onClose={closed}
          >
            <TextInput source="label" label="Label" />
          </FormDialog>
        </AdminContext>
      </TestMemoryRouter>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename it' }));
    expect(await within(dialog).findByText('is required')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
    await userEvent.type(within(dialog).getByLabelText('Label'), ' Better ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename it' }));
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ label: 'Better' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Rename it' })).toBeEnabled());
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(closed).not.toHaveBeenCalled();
  });

  it('edits a given record, each declared field starting from its value or from what `fromRecord` makes of the record', async () => {
    const submit = vi.fn<Submit>().mockResolvedValue(undefined);
    const fields = [
      { source: 'name', type: 'text' as const, edit: true },
      {
        source: 'tagNames',
        type: 'text' as const,
        label: 'Tags',
        edit: true,
        fromRecord: (record: Widget) => record.tags.map((tag) => tag.name).join(', '),
      },
    ];
    render(
      <TestMemoryRouter>
        <AdminContext store={memoryStore()} queryClient={new QueryClient()} {...declaredProviders([widgets])}>
          <FormDialog<Record<string, unknown>>
            resource="widgets"
            mode="edit"
            fields={fields as never}
            record={widget(2, {
              tags: [
                { id: 't-1', name: 'blue' },
                { id: 't-2', name: 'red' },
              ],
            })}
            title="Widget 0002"
            onSubmit={submit}
            onClose={() => undefined}
          />
        </AdminContext>
      </TestMemoryRouter>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Widget 0002' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Widget 0002');
    expect(within(dialog).getByRole('textbox', { name: 'Tags' })).toHaveValue('blue, red');
  });
});
