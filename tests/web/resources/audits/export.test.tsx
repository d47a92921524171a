import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import { audits } from '../../../../resources/audits';
import { server } from '../../msw';
import { API, renderDeclared, signIn } from '../../framework/harness';
import { auditApi, auditEntry } from './auditApi';
import { catchDownloads } from './download';
import { RESOURCE_TIMEOUT_MS } from './listApi';

afterEach(() => vi.restoreAllMocks());

const today = () => new Date().toISOString().slice(0, 10);

describe('export of system audits', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('a filtered list pages through the filter route, 1000 a call, offset and limit in the path and the body', async () => {
    signIn();
    // "rec-1" matches entries 1, 10–19, 100–199 and 1000–1999: 1111 of 2100.
    const api = auditApi(Array.from({ length: 2100 }, (_, index) => auditEntry(index + 1)));
    const downloads = catchDownloads();
    renderDeclared([audits], { path: `/audits?filter=${encodeURIComponent(JSON.stringify({ search: 'rec-1' }))}` });
    await screen.findByText('203.0.113.1', { selector: 'td, td *' });
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 15_000 });

    expect(api.calls.filter((call) => call.path.endsWith('/1000'))).toEqual([
      { method: 'POST', path: '/system/audits/filter/0/1000', body: { search: 'rec-1', offset: 0, limit: 1000 } },
      { method: 'POST', path: '/system/audits/filter/1000/1000', body: { search: 'rec-1', offset: 1000, limit: 1000 } },
    ]);
    expect(downloads[0].name).toBe(`audits-${today()}.csv`);
    const lines = downloads[0].text.split('\r\n');
    expect(lines[0]).toBe('Time,User,Acting admin,Model,Operation,Address');
    expect(lines).toHaveLength(1 + 1111);
    expect(lines[1]).toBe(`${auditEntry(1).createdAt},Mia Jones <mia@acme.test>,,user,create,203.0.113.1`);
    expect(await screen.findByRole('alert')).toHaveTextContent('1111 rows exported');
  });

  it('without a filter it pages through the list route; a shown Changes column exports the changes as JSON', async () => {
    signIn();
    const api = auditApi(Array.from({ length: 1200 }, (_, index) => auditEntry(index + 1)));
    server.use(http.put(`${API}/lists/audits/columns`, () => HttpResponse.json({ message: 'Columns saved', data: {} })));
    const downloads = catchDownloads();
    // Every column shown, the record id and the changes too.
    renderDeclared([audits], { path: '/audits', store: memoryStore({ 'audits.datatable': [] }) });
    await screen.findByText('rec-1', { selector: 'td, td *' });
    // The list's own column summarises the changed fields.
    expect(screen.getAllByText('name, isActive', { selector: 'td, td *' }).length).toBeGreaterThan(0);
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 15_000 });

    expect(api.seen(/\/1000$/)).toEqual(['GET /system/audits/0/1000', 'GET /system/audits/1000/1000']);
    const lines = downloads[0].text.split('\r\n');
    expect(lines[0]).toBe('Time,User,Acting admin,API key,Model,Operation,Record,Address,Changes');
    expect(lines).toHaveLength(1 + 1200);
    expect(lines[3]).toBe(
      `${auditEntry(3).createdAt},Mia Jones <mia@acme.test>,,Nightly sync,role,update,rec-3,203.0.113.3,"{""before"":{""name"":""Old 3"",""isActive"":true,""description"":""same""},""after"":{""name"":""New 3"",""isActive"":false,""description"":""same""}}"`,
    );
  });
});
