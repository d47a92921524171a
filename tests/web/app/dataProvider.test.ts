import { http, HttpResponse } from 'msw';
import { createDataProvider, dataProvider, offsetLimitRoutes, pageToOffset, readRowsAndCount } from '../../../providers/dataProvider';
import { server } from '../msw';
import { admin, API, signIn } from './fixtures';

const mail = { id: 'm-1', toAddress: 'bob@acme.test', subject: 'Your invitation', kind: 'invitation', status: 'kept', createdAt: '2026-01-02T03:04:05Z' };

describe('the dataProvider route map', () => {
  it('lists the outbox by offset and limit, reading data.rows and data.count', async () => {
    signIn(admin);
    const seen: string[] = [];
    server.use(
      http.get(`${API}/mail/outbox/:offset/:limit`, ({ params, request }) => {
        seen.push(`${params.offset}/${params.limit} ${request.headers.get('x-access-token')}`);
        return HttpResponse.json({ message: 'Mail outbox', data: { rows: [mail], count: 31 } });
      }),
    );
    const result = await dataProvider.getList('outbox', { pagination: { page: 3, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(seen).toEqual(['20/10 token-admin']);
    expect(result).toEqual({ data: [mail], total: 31 });
  });

  it('reads one mail from data, and several with one call per id', async () => {
    signIn(admin);
    server.use(
      http.get(`${API}/mail/outbox/:id`, ({ params }) =>
        HttpResponse.json({ message: 'Mail', data: { ...mail, id: params.id, text: 'Hello' } }),
      ),
    );
    expect((await dataProvider.getOne('outbox', { id: 'm-1' })).data).toEqual({ ...mail, text: 'Hello' });
    const many = await dataProvider.getMany('outbox', { ids: ['m-1', 'm-2'] });
    expect(many.data.map((record) => record.id)).toEqual(['m-1', 'm-2']);
  });

  it("rejects with the server's message and status, as react-admin expects", async () => {
    signIn(admin);
    server.use(http.get(`${API}/mail/outbox/:id`, () => HttpResponse.json({ message: 'Mail not found' }, { status: 404 })));
    await expect(dataProvider.getOne('outbox', { id: 'nope' })).rejects.toMatchObject({ message: 'Mail not found', status: 404 });
  });

  it('rejects what no route is declared for, naming the resource and the method', async () => {
    await expect(dataProvider.getList('widgets', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).rejects.toThrow(
      'The console cannot getList "widgets": no route is declared for it',
    );
    await expect(dataProvider.delete('outbox', { id: 'm-1' })).rejects.toThrow('The console cannot delete "outbox"');
    await expect(dataProvider.create('outbox', { data: {} })).rejects.toThrow('The console cannot create "outbox"');
  });

  it('grows by adding entries: a resource with its own request and reader', async () => {
    signIn(admin);
    let body: unknown;
    server.use(
      http.post(`${API}/users/filter/10/0/DESC/createdAt`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ message: 'Users', data: { rows: [{ id: 'u-1' }], count: 1 } });
      }),
    );
    const provider = createDataProvider({
      outbox: offsetLimitRoutes('/mail/outbox'),
      users: {
        list: {
          request: ({ pagination, filter }) => {
            const { offset, limit } = pageToOffset(pagination);
            return { path: `/users/filter/${limit}/${offset}/DESC/createdAt`, method: 'POST', body: filter };
          },
          read: readRowsAndCount,
        },
      },
    });
    const result = await provider.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' }, filter: { search: 'ada' } });
    expect(body).toEqual({ search: 'ada' });
    expect(result.total).toBe(1);
  });
});
