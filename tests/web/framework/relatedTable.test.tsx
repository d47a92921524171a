import DeleteIcon from '@mui/icons-material/Delete';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { createDataProvider } from '../../../providers/dataProvider';
import { callsOf } from '../../../src/framework/declaration';
import { declaredProviders } from '../../../src/framework/providers';
import { defineRelatedList } from '../../../src/framework/related/declaration';
import { withRelatedLists } from '../../../src/framework/related/relatedLists';
import { RelatedTable, type RelatedColumn, type RelatedRowAction } from '../../../src/framework/related/RelatedTable';
import { SearchField } from '../../../src/framework/related/SearchField';
import { useRelatedList, WHOLE_LIST, type RelatedListState } from '../../../src/framework/related/useRelatedList';
import { defineResource } from '../../../src/framework/types';
import { server } from '../msw';
import { API, FRAMEWORK_TIMEOUT_MS, signIn } from './harness';

/**
 * Related lists that are no resource of their own: a gadget's notes (paged by the server,
 * searched through another route) and its tags (answered whole, as a bare array), listed by
 * getManyReference from their declared calls and shown by the framework's related table.
 */

interface Note {
  id: string;
  text: string;
}

interface Tag {
  label: string;
}

const notesList = defineRelatedList<{ search?: string }>({
  name: 'gadgets.notes',
  call: ({ search }) =>
    search ? { route: '/gadget/notes/search/{id}/{offset}/{limit}?q={search}', search } : { route: '/gadget/{id}/notes/{offset}/{limit}' },
});

const tagsList = defineRelatedList({ name: 'gadgets.tags', call: '/gadget/{id}/tags', idField: 'label' });

const gadgets = defineResource({
  name: 'gadgets',
  messages: { en: { name: 'Gadget |||| Gadgets', fields: {}, notes: { empty: 'No notes yet.', none_match: 'No note matches.' } } },
  fields: [{ source: 'name', type: 'text' }],
  routes: { list: '/gadgets/{offset}/{limit}' },
  related: { owner: '/owner/{id}/gadgets' },
  relatedLists: [notesList, tagsList],
});

const GADGET = 'g-1';
const note = (index: number): Note => ({ id: `n-${index}`, text: `Note ${index}` });

/** The gadget's notes behind the paged and the search routes, and its tags as a bare array; each call recorded. */
function gadgetApi(notes: Note[], options: { fail?: string; tags?: Tag[] } = {}) {
  const seen: string[] = [];
  const page = (rows: Note[], offset: string | readonly string[] | undefined, limit: string | readonly string[] | undefined) => {
    const from = Number(offset);
    return HttpResponse.json({ message: 'Notes', data: { rows: rows.slice(from, from + Number(limit)), count: rows.length } });
  };
  server.use(
    http.get(`${API}/gadget/:id/notes/:offset/:limit`, ({ params, request }) => {
      seen.push(new URL(request.url).pathname.slice(API.length));
      if (options.fail) return HttpResponse.json({ message: options.fail }, { status: 403 });
      return page(notes, params.offset, params.limit);
    }),
    http.get(`${API}/gadget/notes/search/:id/:offset/:limit`, ({ params, request }) => {
      const url = new URL(request.url);
      seen.push(`${url.pathname.slice(API.length)}${url.search}`);
      const text = url.searchParams.get('q') ?? '';
      return page(
        notes.filter((row) => row.text.includes(text)),
        params.offset,
        params.limit,
      );
    }),
    http.get(`${API}/gadget/:id/tags`, ({ request }) => {
      seen.push(new URL(request.url).pathname.slice(API.length));
      return HttpResponse.json(options.tags ?? []);
    }),
  );
  return seen;
}

const COLUMNS: readonly RelatedColumn<Note>[] = [{ label: 'Text', render: (row) => row.text }];

function Notes({ onDelete, perPage = 3 }: { onDelete?: (row: Note) => void; perPage?: number }) {
  const [search, setSearch] = useState('');
  const list = useRelatedList<Note>(notesList, GADGET, { filter: { search }, perPage });
  const actions: RelatedRowAction<Note>[] | undefined = onDelete && [
    {
      label: (row) => `Delete ${row.text}`,
      icon: <DeleteIcon />,
      color: 'error',
      run: onDelete,
      confirm: { title: (row) => `Delete "${row.text}"?`, content: 'The note is gone for good.' },
    },
  ];
  return (
    <>
      <SearchField label="Search notes" value={search} onChange={setSearch} />
      <RelatedTable
        list={list}
        label="Notes"
        columns={COLUMNS}
        actions={actions}
        rowProps={(row) => ({ 'data-note': row.id })}
        empty={search ? 'resources.gadgets.notes.none_match' : 'resources.gadgets.notes.empty'}
      />
    </>
  );
}

function Tags() {
  const [perPage, setPerPage] = useState(5);
  const list = useRelatedList<Tag>(tagsList, GADGET, { perPage });
  return (
    <>
      <button type="button" onClick={() => setPerPage(WHOLE_LIST)}>
        All at once
      </button>
      <RelatedTable
        list={list}
        label="Tags"
        columns={[{ label: 'Tag', render: (tag) => tag.label }]}
        empty="resources.gadgets.notes.empty"
      />
    </>
  );
}

function renderIn(children: React.ReactNode) {
  render(
    <TestMemoryRouter initialEntries={['/gadgets/g-1/show']}>
      <AdminContext
        store={memoryStore()}
        queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        {...declaredProviders([gadgets])}
      >
        {children}
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const rowsOf = (name: string) => [...screen.getByRole('table', { name }).querySelectorAll('tbody tr')].map((row) => row.textContent);

describe('a related table', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  beforeEach(() => {
    signIn();
  });

  it('pages by offset and limit through the declared route, saying where the page is', async () => {
    const user = userEvent.setup();
    const seen = gadgetApi(Array.from({ length: 7 }, (_, index) => note(index + 1)));
    renderIn(<Notes />);
    await waitFor(() => expect(rowsOf('Notes')).toEqual(['Note 1', 'Note 2', 'Note 3']));
    expect(screen.getByText('1–3 of 7')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(rowsOf('Notes')).toEqual(['Note 4', 'Note 5', 'Note 6']));
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(rowsOf('Notes')).toEqual(['Note 7']));
    expect(screen.getByText('7–7 of 7')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
    expect(seen).toEqual(['/gadget/g-1/notes/0/3', '/gadget/g-1/notes/3/3', '/gadget/g-1/notes/6/3']);
  });

  it('takes the route the filter chooses, from the first page again', async () => {
    const user = userEvent.setup();
    const seen = gadgetApi(Array.from({ length: 12 }, (_, index) => note(index + 1)));
    renderIn(<Notes />);
    await waitFor(() => expect(rowsOf('Notes')).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(rowsOf('Notes')[0]).toBe('Note 4'));
    await user.type(screen.getByRole('textbox', { name: 'Search notes' }), '1');
    await waitFor(() => expect(rowsOf('Notes')).toEqual(['Note 1', 'Note 10', 'Note 11']));
    expect(seen.at(-1)).toBe('/gadget/notes/search/g-1/0/3?q=1');
    await user.type(screen.getByRole('textbox', { name: 'Search notes' }), '9');
    expect(await screen.findByText('No note matches.')).toBeInTheDocument();
  });

  it('says so when there is none', async () => {
    gadgetApi([]);
    renderIn(<Notes />);
    expect(await screen.findByText('No notes yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("shows the server's refusal instead of rows, and no pager", async () => {
    gadgetApi([note(1)], { fail: 'You may not read the notes' });
    renderIn(<Notes />);
    expect(await screen.findByText('You may not read the notes')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Go to next page' })).toBeNull();
  });

  it('runs a row action only once it is confirmed, with its row', async () => {
    const user = userEvent.setup();
    gadgetApi([note(1), note(2)]);
    const deleted: string[] = [];
    renderIn(<Notes onDelete={(row) => deleted.push(row.id)} />);
    await waitFor(() => expect(rowsOf('Notes')).toHaveLength(2));
    const second = screen.getByRole('table', { name: 'Notes' }).querySelector('tr[data-note="n-2"]') as HTMLElement;

    await user.click(within(second).getByRole('button', { name: 'Delete Note 2' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete "Note 2"?')).toBeInTheDocument();
    expect(within(dialog).getByText('The note is gone for good.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toEqual([]);

    await user.click(within(second).getByRole('button', { name: 'Delete Note 2' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual(['n-2']));
  });

  it('pages a list answered whole (a bare array), naming rows by their declared field', async () => {
    const user = userEvent.setup();
    const seen = gadgetApi([], { tags: Array.from({ length: 12 }, (_, index) => ({ label: `tag-${index + 1}` })) });
    renderIn(<Tags />);
    await waitFor(() => expect(rowsOf('Tags')).toEqual(['tag-1', 'tag-2', 'tag-3', 'tag-4', 'tag-5']));
    expect(screen.getByText('1–5 of 12')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(rowsOf('Tags')).toEqual(['tag-11', 'tag-12']));
    await user.click(screen.getByRole('button', { name: 'All at once' }));
    await waitFor(() => expect(rowsOf('Tags')).toHaveLength(12));
    expect(seen.every((path) => path === '/gadget/g-1/tags')).toBe(true);
  });
});

describe("the dataProvider's getManyReference over related lists", () => {
  beforeEach(() => {
    signIn();
  });

  it("pages a resource's related route that answers every row at once, and leaves the rest to the provider", async () => {
    server.use(
      http.get(`${API}/owner/:id/gadgets`, () =>
        HttpResponse.json({ message: 'Gadgets', data: Array.from({ length: 4 }, (_, index) => ({ id: `g-${index}`, name: `G${index}` })) }),
      ),
    );
    const provider = withRelatedLists(createDataProvider([callsOf(gadgets)]), [gadgets]);
    const params = {
      target: 'owner',
      id: 'o-1',
      pagination: { page: 2, perPage: 3 },
      sort: { field: '', order: 'ASC' as const },
      filter: {},
    };
    const result = await provider.getManyReference('gadgets', params);
    expect(result.data).toEqual([{ id: 'g-3', name: 'G3' }]);
    expect(result.total).toBe(4);
    await expect(provider.getManyReference('gadgets', { ...params, target: 'maker' })).rejects.toThrow(
      'The resource "gadgets" declares no list by "maker"',
    );
  });
});

describe('a related table while its first page loads', () => {
  const pending: RelatedListState<Note> = {
    rows: undefined,
    total: undefined,
    cappedCount: undefined,
    hasNextPage: false,
    page: 1,
    perPage: 10,
    setPage: () => undefined,
    isPending: true,
    isFetching: true,
    error: null,
    refetch: () => undefined,
  };

  it('names its placeholder for screen readers: its own label, else "Loading"', () => {
    renderIn(
      <>
        <RelatedTable list={pending} label="Notes" columns={[]} empty="resources.gadgets.notes.empty" loadingLabel="Loading the notes" />
        <RelatedTable list={pending} label="Tags" columns={[]} empty="resources.gadgets.notes.empty" />
      </>,
    );
    expect(screen.getByRole('progressbar', { name: 'Loading the notes' })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeTruthy();
  });
});
