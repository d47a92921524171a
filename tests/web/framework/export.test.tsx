import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import { csvCell, toCsv } from '../../../src/framework/csv';
import { server } from '../msw';
import { API, FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn, widget, widgetApi, widgets } from './harness';
import { listToolbarShown } from '../listPage';

interface Download {
  name: string;
  text: string;
}

/** Catches the file the browser would download: its name and content. */
function catchDownloads(): Download[] {
  const downloads: Download[] = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${(next += 1)}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    void blob.text().then((text) => downloads.push({ name: this.download, text }));
  });
  return downloads;
}

afterEach(() => vi.restoreAllMocks());

describe('CSV', () => {
  it('quotes what needs quoting and neutralises formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, 'x'],
          ['y', null],
        ],
      ),
    ).toBe('a,b\r\n1,x\r\ny,');
  });
});

describe('export of a declared list', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('exports every row of the filtered list, 1000 a call until a page comes back short, with the visible columns only', async () => {
    signIn();
    const rows = Array.from({ length: 2345 }, (_, index) =>
      widget(
        index + 1,
        index === 0
          ? { name: '=cmd|" /C calc"!A0', email: '+evil@acme.test' }
          : index === 1
            ? { name: 'Line one\nline two, "quoted"' }
            : {},
      ),
    );
    // The count is capped below the real number of rows: export must not rely on it.
    const api = widgetApi(rows);
    api.countCap = 1500;
    const downloads = catchDownloads();
    // This browser's columns, not yet on the server: the list saves them as the user's choice.
    server.use(http.put(`${API}/lists/widgets/columns`, () => HttpResponse.json({ message: 'Columns saved', data: {} })));
    // Hidden: kind and createdAt; shown: size (hidden by default).
    const store = memoryStore({
      'widgets.datatable': ['kind', 'createdAt', 'tags'],
      'widgets.datatable_columnRanks': [4, 0, 1, 2, 3, 5, 6, 7],
    });
    renderDeclared([widgets], { path: '/widgets', store });
    await screen.findByText('Widget 0003', { selector: 'td, td *' });
    await listToolbarShown();

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 15_000 });
    expect(api.seen(/GET \/widgets\/\d+\/1000/)).toEqual(['GET /widgets/0/1000', 'GET /widgets/1000/1000', 'GET /widgets/2000/1000']);
    expect(downloads[0].name).toBe(`widgets-${new Date().toISOString().slice(0, 10)}.csv`);

    const text = downloads[0].text.replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Size,Name,Email,Condition,Active');
    expect(lines[1]).toBe(`1,"'=cmd|"" /C calc""!A0",'+evil@acme.test,Fine,false`);
    expect(text).toContain('2,"Line one\nline two, ""quoted""",w2@acme.test,Fine,true');
    expect(text).toContain('3,Widget 0003,w3@acme.test,Broken,false');
    expect(text.endsWith('2345,Widget 2345,w2345@acme.test,Fine,false')).toBe(true);
    // A header and 2,345 rows (records end with CRLF; the line break inside a quoted cell is its own LF).
    expect(lines).toHaveLength(1 + 2345);
    expect(await screen.findByRole('alert')).toHaveTextContent('2345 rows exported');
  });

  it('exports through the filter route with the filter body when the list is filtered', async () => {
    signIn();
    const api = widgetApi(Array.from({ length: 30 }, (_, index) => widget(index + 1)));
    const downloads = catchDownloads();
    renderDeclared([widgets], { path: '/widgets?filter=%7B%22status%22%3A%22broken%22%7D' });
    await screen.findByText('Widget 0030', { selector: 'td, td *' });
    await listToolbarShown();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const exportCall = api.calls.find((call) => call.path.includes('/1000/'))!;
    expect(exportCall).toEqual({ method: 'POST', path: '/widgets/filter/1000/0/DESC/createdAt', body: { status: 'broken' } });
    const lines = downloads[0].text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Name,Email,Kind,Condition,Active,Created');
    expect(lines).toHaveLength(1 + 10);
    expect(lines.slice(1).every((line) => line.includes(',Broken,'))).toBe(true);
  });
});
