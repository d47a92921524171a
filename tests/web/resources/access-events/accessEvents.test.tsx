import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_EVENT_KINDS, ACCESS_EVENT_REASONS, ACCESS_EVENT_STATUSES } from '../../../../common/contract/access-events';
import { accessEvents } from '../../../../resources/access-events';
import { mockPolicies, plainUser, renderDeclared, signIn } from '../../framework/harness';
import { RESOURCE_TIMEOUT_MS } from '../audits/listApi';
import { accessEvent, eventApi, LEO, MIA } from './eventApi';
import { bodyRows, loaded, rowOf } from '../../listPage';

/** The address column of each row shown. */
function addresses(): string[] {
  return bodyRows().map((row) => within(row).getByText(/^198\.51\.100\./).textContent ?? '');
}

const events = (count: number) => Array.from({ length: count }, (_, index) => accessEvent(index + 1));

describe('security access events', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('has a text for every event, status and reason the contract says the server records', () => {
    const texts = accessEvents.messages.en as unknown as Record<'events' | 'statuses' | 'reasons', Record<string, string>>;
    const untold = [
      ...ACCESS_EVENT_KINDS.filter((kind) => !texts.events[kind]).map((kind) => `events.${kind}`),
      ...ACCESS_EVENT_STATUSES.filter((status) => !texts.statuses[status]).map((status) => `statuses.${status}`),
      ...ACCESS_EVENT_REASONS.filter((reason) => !texts.reasons[reason]).map((reason) => `reasons.${reason}`),
    ];
    expect(untold).toEqual([]);
  });

  it("lists the list route's events: who, event, a status chip, why, from where; the user agent hidden; cards above; read-only", async () => {
    signIn();
    const api = eventApi([
      accessEvent(1, {
        event: 'impersonation',
        status: 'success',
        reason: null,
        impersonatorUserId: 'u-ada',
        impersonatorEmail: 'ada@acme.test',
      }),
      accessEvent(2),
      accessEvent(3, { userId: null, userName: null, email: 'nobody@acme.test', reason: 'unknown_account', status: 'failure' }),
      accessEvent(4, { reason: 'something_new', status: 'failure' }),
      ...events(12).slice(4),
    ]);
    renderDeclared([accessEvents], { path: '/access-events' });
    await loaded('198.51.100.1');

    expect(api.seen(/GET \/access\/events\/\d/)).toEqual(['GET /access/events/0/10']);
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent)
      .filter(Boolean);
    expect(headers).toEqual(['Time', 'User', 'Event', 'Status', 'Reason', 'Address', 'Acting admin']);
    expect(screen.queryByText('Agent/1.0 (X11; Linux)')).toBeNull();

    const first = rowOf('198.51.100.1');
    expect(first).toHaveTextContent('Mia Jones');
    expect(first).toHaveTextContent('mia@acme.test');
    expect(within(first).getByText('Impersonation')).toBeInTheDocument();
    expect(first).toHaveTextContent('ada@acme.test');
    const success = within(first).getByText('Success').closest('.MuiChip-root')!;
    expect(success).toHaveClass('MuiChip-colorSuccess');

    const failure = rowOf('198.51.100.7');
    expect(within(failure).getByText('Sign-in')).toBeInTheDocument();
    expect(within(failure).getByText('Failure').closest('.MuiChip-root')).toHaveClass('MuiChip-colorError');
    expect(within(failure).getByText('Wrong password')).toBeInTheDocument();
    expect(within(rowOf('198.51.100.2')).getByText('Too many attempts')).toBeInTheDocument();
    // An address typed for no user: the address alone.
    expect(rowOf('198.51.100.3')).toHaveTextContent('nobody@acme.test');
    expect(within(rowOf('198.51.100.3')).getByText('Unknown account')).toBeInTheDocument();
    // A reason the console has no text for reads as the server wrote it.
    expect(within(rowOf('198.51.100.4')).getByText('something_new')).toBeInTheDocument();
    expect(within(rowOf('198.51.100.5')).getByText('Blocked').closest('.MuiChip-root')).toHaveClass('MuiChip-colorWarning');

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Failures today').closest('[data-card]')).toHaveTextContent('7');
    expect(within(cards).getByText('Successful sign-ins today').closest('[data-card]')).toHaveTextContent('4');
    expect(within(cards).getByText('Impersonations in the last 7 days')).toBeInTheDocument();

    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(within(first).queryByRole('button')).toBeNull();
  });

  it('the status filter offers the statuses of fetchDistinctEventStatus and sends them; the others send exactly their fields', async () => {
    signIn();
    const api = eventApi(events(30));
    api.statusValues = ['failure', 'success'];
    renderDeclared([accessEvents], { path: '/access-events' });
    await loaded('198.51.100.1');
    await waitFor(() => expect(api.seen(/fetchDistinctEventStatus/)).toEqual(['GET /fetchDistinctEventStatus']));
    const lastFilter = () => api.calls.filter((call) => call.method === 'POST').at(-1);

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    // The present statuses, in the console's words; not the filter props' list of all three.
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Failure', 'Success']);
    await userEvent.click(screen.getByRole('option', { name: 'Failure' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await waitFor(() =>
      expect(lastFilter()).toEqual({ method: 'POST', path: '/access/events/filter/0/10', body: { status: ['failure'] } }),
    );
    await waitFor(() => expect(screen.getByText('1–10 of 10')).toBeInTheDocument());
    expect(bodyRows().every((row) => within(row).queryByText('Failure') !== null)).toBe(true);

    await userEvent.click(screen.getByRole('combobox', { name: 'User' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Leo Park' }));
    await waitFor(() => expect(lastFilter()?.body).toEqual({ status: ['failure'], user: [LEO.id] }));
    // Leo's failures: every sixth event from the fourth.
    await waitFor(() => expect(addresses()).toEqual(['198.51.100.4', '198.51.100.10', '198.51.100.16', '198.51.100.22', '198.51.100.28']));

    await userEvent.type(screen.getByLabelText('From'), '2026-11-21');
    await waitFor(() => expect(lastFilter()?.body).toEqual({ status: ['failure'], user: [LEO.id], startDate: '2026-11-21' }));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-21');
    await waitFor(() =>
      expect(lastFilter()?.body).toEqual({ status: ['failure'], user: [LEO.id], startDate: '2026-11-21', endDate: '2026-11-21' }),
    );
    // Nov 22 12:00 less 16, 22 and 28 hours: Nov 21.
    await waitFor(() => expect(addresses()).toEqual(['198.51.100.16', '198.51.100.22', '198.51.100.28']));

    await userEvent.type(screen.getByPlaceholderText('Search events'), 'Agent/22');
    await waitFor(() =>
      expect(lastFilter()).toEqual({
        method: 'POST',
        path: '/access/events/filter/0/10',
        body: { status: ['failure'], user: [LEO.id], startDate: '2026-11-21', endDate: '2026-11-21', search: 'Agent/22' },
      }),
    );
    await waitFor(() => expect(addresses()).toEqual(['198.51.100.22']));
    expect(api.seen(/fetchDistinctEventStatus/)).toHaveLength(1);
  });

  it('when fetchDistinctEventStatus fails, the filter offers every status, quietly', async () => {
    signIn();
    const api = eventApi(events(3));
    api.statusValues = null;
    renderDeclared([accessEvents], { path: '/access-events' });
    await loaded('198.51.100.1');
    await waitFor(() => expect(api.seen(/fetchDistinctEventStatus/)).toHaveLength(1));
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Success', 'Failure', 'Blocked']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a row opens the event with its user agent, kept from the row', async () => {
    signIn();
    eventApi(events(15));
    const view = renderDeclared([accessEvents], { path: '/access-events' });
    await loaded('198.51.100.1');
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await loaded('198.51.100.12');
    await userEvent.click(within(rowOf('198.51.100.12')).getByText('198.51.100.12'));
    await waitFor(() => expect(view.location().pathname).toBe('/access-events/e-12/show'));
    expect(await screen.findByText('Agent/12.0 (X11; Linux)')).toBeInTheDocument();
    expect(screen.getByText('Leo Park')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('needs the accessEvents policy (not "access-events")', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'accessEvents', actions: ['read'] }]);
    eventApi(events(2));
    renderDeclared([accessEvents], { path: '/access-events' });
    await loaded('198.51.100.1');
    expect(rowOf('198.51.100.1')).toHaveTextContent(MIA.name);
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
  });
});
