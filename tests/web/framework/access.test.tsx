import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, FRAMEWORK_TIMEOUT_MS, mockPolicies, plainUser, renderDeclared, signIn, widget, widgetApi, widgets } from './harness';
import { rowOf } from '../listPage';

describe('permissions of a declared resource', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('a user who may only read sees no create, delete or edit, and a switch they cannot use; the policies are read once', async () => {
    signIn(plainUser);
    // The declaration's access name is "gadgets": policies on "widgets" would not count.
    const policies = mockPolicies([
      { resource: 'gadgets', actions: ['read'] },
      { resource: 'widgets', actions: ['read', 'create', 'update', 'delete'] },
    ]);
    widgetApi([widget(1), widget(2)]);
    const view = renderDeclared([widgets], { path: '/widgets' });
    await screen.findByText('Widget 0001', { selector: 'td, td *' });
    // Reading includes the export.
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(within(rowOf('Widget 0001')).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(rowOf('Widget 0001')).getByRole('switch', { name: 'Active: Widget 0001' })).toBeDisabled();

    // The row opens the show view, not the edit form.
    await userEvent.click(within(rowOf('Widget 0001')).getByText('Widget 0001'));
    await waitFor(() => expect(view.location().pathname).toBe('/widgets/w-1/show'));
    expect(await screen.findByText('w1@acme.test')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(policies.calls()).toBe(1);
  });

  it('with create and delete granted, the buttons are there', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'gadgets', actions: ['read', 'create', 'delete'] }]);
    widgetApi([widget(1)]);
    renderDeclared([widgets], { path: '/widgets' });
    await screen.findByText('Widget 0001', { selector: 'td, td *' });
    expect(await screen.findByRole('link', { name: 'Create' })).toBeInTheDocument();
    expect(await within(rowOf('Widget 0001')).findByRole('button', { name: 'Delete Widget 0001' })).toBeInTheDocument();
    // No update: the activation switch stays disabled.
    expect(within(rowOf('Widget 0001')).getByRole('switch', { name: 'Active: Widget 0001' })).toBeDisabled();
  });

  it('an admin may do everything without asking for policies', async () => {
    signIn(adminUser);
    const policies = mockPolicies([]);
    widgetApi([widget(1)]);
    renderDeclared([widgets], { path: '/widgets' });
    await screen.findByText('Widget 0001', { selector: 'td, td *' });
    expect(await screen.findByRole('link', { name: 'Create' })).toBeInTheDocument();
    expect(await within(rowOf('Widget 0001')).findByRole('button', { name: 'Delete Widget 0001' })).toBeInTheDocument();
    expect(within(rowOf('Widget 0001')).getByRole('switch', { name: 'Active: Widget 0001' })).toBeEnabled();
    expect(policies.calls()).toBe(0);
  });

  it('a user without read is kept out of the list', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'gadgets', actions: ['create'] }]);
    const api = widgetApi([widget(1)]);
    const view = renderDeclared([widgets], { path: '/widgets' });
    await waitFor(() => expect(view.location().pathname).toBe('/access-denied'));
    expect(api.seen(/cards|props/)).toEqual([]);
  });
});
