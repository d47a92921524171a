import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiKeysApi } from './apikeysApi';
import { APIKEYS_TIMEOUT_MS, bob, mockPolicies, renderApiKeys } from './render';

async function panel(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Operations' });
  await within(section).findByRole('checkbox', { name: 'GET /users/{offset}/{limit}' });
  return section;
}

function box(section: HTMLElement, name: string): HTMLElement {
  return within(section).getByRole('checkbox', { name });
}

function tags(section: HTMLElement): string[] {
  return [...section.querySelectorAll('fieldset[data-tag]')].map((fieldset) => fieldset.getAttribute('data-tag') ?? '');
}

describe("an API key's page", { timeout: APIKEYS_TIMEOUT_MS }, () => {
  it("shows the key's details and the catalogue by tag, its grants ticked", async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys/k-ci/show');
    const section = await panel();
    expect(screen.getByText('dok_CiPipe123456…')).toBeInTheDocument();
    expect(screen.getAllByText('Ada Admin').length).toBeGreaterThan(0);
    expect(tags(section)).toEqual(['Roles and policies', 'Users', 'Workspaces']);
    expect(box(section, 'GET /users/{offset}/{limit}')).toBeChecked();
    expect(box(section, 'GET /workspaces')).toBeChecked();
    expect(box(section, 'GET /users/active')).not.toBeChecked();
    expect(box(section, 'POST /roles')).not.toBeChecked();
    expect(within(section).getByText('2 of 5 operations granted')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Save operations' })).toBeDisabled();
    expect(api.seen(/openapi/)).toEqual(['GET /openapi']);
  });

  it('saves exactly the ticked operations with POST /openapi/assign/{id}', async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys/k-ci/show');
    const section = await panel();
    await userEvent.click(box(section, 'POST /roles'));
    await userEvent.click(box(section, 'GET /workspaces'));
    expect(within(section).getByText('2 of 5 operations granted')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Save operations' }));
    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /openapi/assign/k-ci']));
    expect(api.bodiesOf(/^POST \/openapi\/assign/)).toEqual([{ operations: ['get_users_offset_limit', 'post_roles'] }]);
    expect(await screen.findByText('API key "CI pipeline" may call 2 operations')).toBeInTheDocument();
    // The key is read again, and what it holds is what the boxes say.
    await waitFor(() => expect(api.seen(/^GET \/apikey\/k-ci/).length).toBeGreaterThan(1));
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Save operations' })).toBeDisabled());
    expect(box(section, 'POST /roles')).toBeChecked();
    expect(box(section, 'GET /workspaces')).not.toBeChecked();
  });

  it("a tag's box ticks all of its operations; clearing every box saves an empty list", async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys/k-report/show');
    const section = await panel();
    await userEvent.click(box(section, 'All operations of Workspaces'));
    expect(box(section, 'GET /workspaces')).toBeChecked();
    expect(box(section, 'PUT /workspace')).toBeChecked();
    await userEvent.click(within(section).getByRole('button', { name: 'Save operations' }));
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/openapi\/assign\/k-report/)).toEqual([{ operations: ['get_workspaces', 'put_workspace'] }]),
    );

    await waitFor(() => expect(within(section).getByRole('button', { name: 'Save operations' })).toBeDisabled());
    await userEvent.click(box(section, 'All operations of Workspaces'));
    await userEvent.click(within(section).getByRole('button', { name: 'Save operations' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/openapi\/assign\/k-report/).at(-1)).toEqual({ operations: [] }));
  });

  it('the search narrows the catalogue; undo brings the saved grants back', async () => {
    apiKeysApi();
    renderApiKeys('/apikeys/k-ci/show');
    const section = await panel();
    await userEvent.type(within(section).getByRole('searchbox', { name: 'Find operations' }), 'role');
    expect(tags(section)).toEqual(['Roles and policies']);
    await userEvent.click(box(section, 'POST /roles'));
    await userEvent.clear(within(section).getByRole('searchbox', { name: 'Find operations' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Undo changes' }));
    expect(box(section, 'POST /roles')).not.toBeChecked();
    expect(box(section, 'GET /workspaces')).toBeChecked();
  });

  it("a refused grant keeps the boxes and shows the server's message", async () => {
    const api = apiKeysApi();
    api.failWith(/^POST \/openapi\/assign/, 400, 'operations: not operations a key may be granted: post_roles');
    renderApiKeys('/apikeys/k-ci/show');
    const section = await panel();
    await userEvent.click(box(section, 'POST /roles'));
    await userEvent.click(within(section).getByRole('button', { name: 'Save operations' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('operations: not operations a key may be granted: post_roles');
    expect(box(section, 'POST /roles')).toBeChecked();
    expect(api.rows.find((row) => row.id === 'k-ci')!.operations).toEqual(['get_users_offset_limit', 'get_workspaces']);
  });

  it('read-only for someone who may read keys but not change them', async () => {
    mockPolicies([{ resource: 'apikeys', actions: ['read'] }]);
    const api = apiKeysApi();
    renderApiKeys('/apikeys/k-ci/show', bob);
    const section = await panel();
    await waitFor(() => expect(box(section, 'POST /roles')).toBeDisabled());
    expect(within(section).queryByRole('button', { name: 'Save operations' })).toBeNull();
    expect(within(section).getByText('You may not change what this key may call.')).toBeInTheDocument();
    expect(api.seen(/^POST/)).toEqual([]);
  });

  it('a deleted key says so and offers no change', async () => {
    apiKeysApi();
    renderApiKeys('/apikeys/k-old/show');
    const section = await panel();
    expect(box(section, 'GET /workspaces')).toBeDisabled();
    expect(within(section).queryByRole('button', { name: 'Save operations' })).toBeNull();
    expect(screen.getAllByText('This key is deleted: it no longer works and cannot be changed.').length).toBeGreaterThan(0);
  });
});
