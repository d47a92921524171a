import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../msw';
import { adminUser, API, FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn, widget, widgetApi, widgets, type Widget } from './harness';
import type { ResourceDeclaration } from '../../../src/framework/types';
import { rowOf } from '../listPage';

async function loaded(text: string) {
  await screen.findByText(text, { selector: 'td, td *' });
}

/** A route that answers only when the test says so, to look at the page while the call runs. */
function heldRoute(method: 'put' | 'delete', path: string) {
  let release: (response: Response) => void = () => undefined;
  let started = false;
  server.use(
    http[method](`${API}${path}`, async () => {
      started = true;
      return new Promise<Response>((resolve) => (release = resolve));
    }),
  );
  return {
    started: () => started,
    answer: (status: number, body: Record<string, unknown>) => act(() => release(HttpResponse.json(body, { status }))),
  };
}

describe('row actions of a declared list', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it("draws a list's first rows with the room of their activation switches, and the switches once the rows are on screen", async () => {
    signIn();
    widgetApi([widget(1), widget(2)]);
    // Frames are held: the moment "the first rows are painted" does not come until the test says so.
    const frames: FrameRequestCallback[] = [];
    const frame = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    try {
      renderDeclared([widgets], { path: '/widgets' });
      await loaded('Widget 0001');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(within(rowOf('Widget 0001')).queryByRole('switch')).toBeNull();
      expect(within(rowOf('Widget 0002')).queryByRole('switch')).toBeNull();
    } finally {
      frame.mockRestore();
    }
    act(() => frames.splice(0).forEach((callback) => callback(performance.now())));
    expect(await within(rowOf('Widget 0001')).findByRole('switch', { name: 'Active: Widget 0001' })).not.toBeChecked();
    expect(within(rowOf('Widget 0002')).getByRole('switch', { name: 'Active: Widget 0002' })).toBeInTheDocument();
  });

  it('the activation switch is disabled while its call runs, then the list reloads and the message is the alert', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(2)]);
    renderDeclared([widgets], { path: '/widgets' });
    await loaded('Widget 0001');
    const listCalls = () => api.seen(/GET \/widgets\/\d/).length;
    const before = listCalls();

    const held = heldRoute('put', '/widget/activate/w-1');
    const toggle = await within(rowOf('Widget 0001')).findByRole('switch', { name: 'Active: Widget 0001' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(held.started()).toBe(true));
    expect(within(rowOf('Widget 0001')).getByRole('switch', { name: 'Active: Widget 0001' })).toBeDisabled();
    expect(screen.getByRole('status')).toBeInTheDocument();

    api.rows[0].isActive = true;
    await held.answer(200, { message: 'Widget 0001 activated', data: api.rows[0] });
    expect(await screen.findByRole('alert')).toHaveTextContent('Widget 0001 activated');
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(within(rowOf('Widget 0001')).getByRole('switch', { name: 'Active: Widget 0001' })).toBeChecked());
    expect(within(rowOf('Widget 0001')).getByRole('switch', { name: 'Active: Widget 0001' })).toBeEnabled();
  });

  it('a failed activation also reloads the list, and shows the server message as the error alert', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(2)]);
    api.failWith(/PUT \/widget\/deactivate\/w-2/, 400, 'This widget is in use and cannot be deactivated');
    renderDeclared([widgets], { path: '/widgets' });
    await loaded('Widget 0002');
    const before = api.seen(/GET \/widgets\/\d/).length;
    const cardsBefore = api.seen(/cards/).length;
    await userEvent.click(await within(rowOf('Widget 0002')).findByRole('switch', { name: 'Active: Widget 0002' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This widget is in use and cannot be deactivated');
    await waitFor(() => expect(api.seen(/GET \/widgets\/\d/).length).toBeGreaterThan(before));
    // The cards reload with the list.
    await waitFor(() => expect(api.seen(/cards/).length).toBeGreaterThan(cardsBefore));
    expect(within(rowOf('Widget 0002')).getByRole('switch', { name: 'Active: Widget 0002' })).toBeChecked();
  });

  it('delete asks first; while the call runs the row is marked deleting; success removes it', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(2), widget(3)]);
    renderDeclared([widgets], { path: '/widgets' });
    await loaded('Widget 0002');

    // The button shows once the permission check answered.
    await userEvent.click(await within(rowOf('Widget 0002')).findByRole('button', { name: 'Delete Widget 0002' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete Widget 0002?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.seen(/DELETE/)).toEqual([]);

    const held = heldRoute('delete', '/widget/w-2');
    await userEvent.click(within(rowOf('Widget 0002')).getByRole('button', { name: 'Delete Widget 0002' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(held.started()).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = rowOf('Widget 0002');
    expect(within(row).getByRole('progressbar', { name: 'Deleting…' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Delete Widget 0002' })).toBeNull();
    expect(row).toHaveStyle({ opacity: '0.5', pointerEvents: 'none' });
    // The row cannot be selected for a bulk action meanwhile.
    expect(within(row).getByRole('checkbox')).toBeDisabled();

    api.rows = api.rows.filter((candidate) => candidate.id !== 'w-2');
    await held.answer(200, { message: 'Widget 0002 deleted' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Widget 0002 deleted');
    await waitFor(() => expect(screen.queryByText('Widget 0002', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Widget 0001', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('a failed delete keeps the row, marked with the error, and shows the message as the error alert', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(2)]);
    api.failWith(/DELETE \/widget\/w-1/, 400, 'Widget 0001 is still mounted');
    renderDeclared([widgets], { path: '/widgets' });
    await loaded('Widget 0001');
    await userEvent.click(await within(rowOf('Widget 0001')).findByRole('button', { name: 'Delete Widget 0001' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Widget 0001 is still mounted');
    const row = rowOf('Widget 0001');
    expect(within(row).getByText('Not deleted: Widget 0001 is still mounted')).toBeInTheDocument();
    expect(row).not.toHaveStyle({ opacity: '0.5' });
    // It can be tried again.
    expect(within(row).getByRole('button', { name: 'Delete Widget 0001' })).toBeEnabled();
    expect(api.rows.map((candidate) => candidate.id)).toEqual(['w-1', 'w-2']);
  });

  it('bulk: activates and deletes the selected rows through the per-record routes', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(3), widget(5), widget(2)]);
    renderDeclared([widgets], { path: '/widgets' });
    await loaded('Widget 0001');
    await userEvent.click(within(rowOf('Widget 0001')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('Widget 0003')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(api.seen(/PUT/).sort()).toEqual(['PUT /widget/activate/w-1', 'PUT /widget/activate/w-3']));
    await waitFor(() => expect(within(rowOf('Widget 0003')).getByRole('switch', { name: 'Active: Widget 0003' })).toBeChecked());

    await userEvent.click(within(rowOf('Widget 0005')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('Widget 0002')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete 2 records?');
    expect(api.seen(/DELETE/)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.seen(/DELETE/).sort()).toEqual(['DELETE /widget/w-2', 'DELETE /widget/w-5']));
    await waitFor(() => expect(screen.queryByText('Widget 0005', { selector: 'td, td *' })).toBeNull());
    expect(api.rows.map((row) => row.id)).toEqual(['w-1', 'w-3']);
    expect(await screen.findByRole('alert')).toHaveTextContent('Deleted: 2 of 2.');
  });

  it('bulk: leaves out the rows the declaration refuses, goes on past a failure, and lists both with the counts', async () => {
    signIn();
    const refusing: ResourceDeclaration<Widget> = {
      ...(widgets as unknown as ResourceDeclaration<Widget>),
      messages: { en: { ...widgets.messages.en, refusals: { mine: 'your own', broken: 'broken widgets stay as they are' } } },
      refusals: {
        delete: (record, caller) => (record.id === caller.id ? { key: 'resources.widgets.refusals.mine' } : null),
        activation: (record) => (record.status === 'broken' ? { key: 'resources.widgets.refusals.broken' } : null),
      },
    };
    const api = widgetApi([widget(1, { id: adminUser.id! }), widget(2), widget(3), widget(4), widget(5), widget(7)]);
    api.failWith(/DELETE \/widget\/w-5/, 409, 'Widget 0005 is still mounted');
    renderDeclared([refusing as never], { path: '/widgets' });
    await loaded('Widget 0001');
    for (const name of ['Widget 0001', 'Widget 0002', 'Widget 0005', 'Widget 0007']) {
      await userEvent.click(within(rowOf(name)).getByRole('checkbox'));
    }
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    // The caller's own row is left out before anything is sent, and the dialog says so.
    expect(dialog).toHaveTextContent('Delete 3 records?');
    expect(dialog).toHaveTextContent('This one is left out:Widget 0001 (your own)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.seen(/DELETE/).sort()).toEqual(['DELETE /widget/w-2', 'DELETE /widget/w-5', 'DELETE /widget/w-7']));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Deleted: 2 of 4. Not deleted: Widget 0001 (your own); Widget 0005 (Widget 0005 is still mounted)',
    );
    await waitFor(() => expect(screen.queryByText('Widget 0007', { selector: 'td, td *' })).toBeNull());
    // The rows left stay selected.
    expect(within(rowOf('Widget 0005')).getByRole('checkbox')).toBeChecked();
    expect(within(rowOf('Widget 0001')).getByRole('checkbox')).toBeChecked();

    // Activation: a broken one is refused, one already active is counted as done, the others are switched.
    await userEvent.click(within(rowOf('Widget 0001')).getByRole('checkbox'));
    for (const name of ['Widget 0003', 'Widget 0004']) {
      await userEvent.click(within(rowOf(name)).getByRole('checkbox'));
    }
    await userEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(api.seen(/PUT/)).toEqual(['PUT /widget/activate/w-5']));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Activated: 2 of 3. Not activated: Widget 0003 (broken widgets stay as they are)',
    );
  });

  it('bulk: exports the selected rows as CSV with the columns shown', async () => {
    signIn();
    widgetApi([widget(1), widget(2), widget(3)]);
    const downloads: { name: string; text: string }[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      void (blob as Blob).text().then((text) => downloads.push({ name: '', text }));
      return 'blob:selection';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderDeclared([widgets], { path: '/widgets' });
    await loaded('Widget 0001');
    await userEvent.click(within(rowOf('Widget 0001')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('Widget 0003')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const lines = downloads[0].text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Name,Email,Kind,Condition,Active,Created');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['Widget 0001', 'Widget 0003']);
    expect(await screen.findByRole('alert')).toHaveTextContent('2 rows exported');
  });

  it('keeps the controls the declaration refuses in place, disabled, saying why, and sends nothing', async () => {
    signIn();
    // The signed-in user's own record may not be deleted; a broken widget may not be switched.
    const refusing: ResourceDeclaration<Widget> = {
      ...(widgets as unknown as ResourceDeclaration<Widget>),
      messages: { en: { ...widgets.messages.en, refusals: { mine: 'Not your own', broken: 'Broken widgets stay as they are' } } },
      refusals: {
        delete: (record, caller) => (record.id === caller.id ? { key: 'resources.widgets.refusals.mine' } : null),
        activation: (record) => (record.status === 'broken' ? { key: 'resources.widgets.refusals.broken' } : null),
      },
    };
    const api = widgetApi([widget(1, { id: adminUser.id! }), widget(2), widget(3)]);
    renderDeclared([refusing as never], { path: '/widgets' });
    await loaded('Widget 0001');

    const own = await within(rowOf('Widget 0001')).findByRole('button', { name: 'Delete Widget 0001' });
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription('Not your own');
    expect(within(rowOf('Widget 0002')).getByRole('button', { name: 'Delete Widget 0002' })).toBeEnabled();

    const broken = await within(rowOf('Widget 0003')).findByRole('switch', { name: 'Active: Widget 0003' });
    expect(broken).toBeDisabled();
    expect(broken).toHaveAccessibleDescription('Broken widgets stay as they are');
    // The others stay as they are (once the caller's permissions are known).
    await waitFor(() => expect(within(rowOf('Widget 0002')).getByRole('switch', { name: 'Active: Widget 0002' })).toBeEnabled());
    await userEvent.hover(broken.closest('[data-refusal]')!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Broken widgets stay as they are');
    expect(api.seen(/PUT|DELETE/)).toEqual([]);
  });
});
