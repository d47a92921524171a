import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { defineAction } from '../../../common/contract/define';
import { callAction } from '../../../providers/dataProvider';
import { ApiError } from '../../../providers/http';
import { storeUser } from '../fixtures';
import { server } from '../msw';

/**
 * callAction honours what an action declares: a public action goes without the session's token,
 * a form goes as multipart, a file answer comes back as the response to read.
 */

const actions = {
  resend: defineAction({
    path: '/sample/resend',
    method: 'POST',
    summary: 'Resend',
    access: 'public',
    body: z.object({ email: z.string() }),
  }),
  mine: defineAction({ path: '/sample/mine', method: 'POST', summary: 'Mine', body: z.object({ email: z.string() }) }),
  upload: defineAction({
    path: '/sample/upload/{id}',
    method: 'POST',
    summary: 'Upload',
    body: { kind: 'multipart', parts: z.object({ note: z.string(), file: z.string() }) },
    data: z.object({ bytes: z.number() }),
  }),
  download: defineAction({
    path: '/sample/download/{id}',
    method: 'GET',
    summary: 'Download',
    answer: { kind: 'file', description: 'A CSV', content: { 'text/csv': { schema: z.string() } } },
  }),
};

/** The token header each call carried, by path. */
function tokensSent(): Map<string, string | null> {
  const sent = new Map<string, string | null>();
  server.use(
    http.post('/api/v1/sample/:name', async ({ request }) => {
      sent.set(new URL(request.url).pathname, request.headers.get('x-access-token'));
      return HttpResponse.json({ message: 'done' });
    }),
  );
  return sent;
}

afterEach(() => {
  localStorage.clear();
});

describe('callAction', () => {
  it('sends a public action without the signed-in user’s token, and any other with it', async () => {
    storeUser();
    const sent = tokensSent();
    expect(await callAction(actions.resend, { body: { email: 'a@example.com' } })).toEqual({ message: 'done' });
    await callAction(actions.mine, { body: { email: 'a@example.com' } });
    expect(sent.get('/api/v1/sample/resend')).toBeNull();
    expect(sent.get('/api/v1/sample/mine')).toBe('token-1');
  });

  it('sends a form body as multipart/form-data', async () => {
    storeUser();
    let received: { type: string | null; note?: FormDataEntryValue | null; file?: boolean } = { type: null };
    server.use(
      http.post('/api/v1/sample/upload/:id', async ({ request }) => {
        const type = request.headers.get('content-type');
        const form = await request.formData();
        // jsdom's File reaches the test's fetch without its bytes: the part is there, its text field whole.
        received = { type, note: form.get('note'), file: form.has('file') };
        return HttpResponse.json({ message: 'uploaded', data: { bytes: 4 } });
      }),
    );
    const form = new FormData();
    form.append('note', 'hello');
    form.append('file', new File(['a,b\n'], 'dictionary.csv', { type: 'text/csv' }));
    const answer = await callAction(actions.upload, { values: { id: 't1' }, body: form });
    expect(answer).toEqual({ message: 'uploaded', data: { bytes: 4 } });
    expect(received.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(received).toMatchObject({ note: 'hello', file: true });
  });

  it('gives a file answer back as the response, asked for by its media types', async () => {
    storeUser();
    let accept: string | null = null;
    server.use(
      http.get('/api/v1/sample/download/:id', ({ request }) => {
        accept = request.headers.get('accept');
        return new HttpResponse('column\r\nid\r\n', {
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="t-dictionary.csv"' },
        });
      }),
    );
    const response = await callAction(actions.download, { values: { id: 't1' } });
    expect(accept).toBe('text/csv');
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="t-dictionary.csv"');
    expect(await response.text()).toBe('column\r\nid\r\n');
  });

  it('rejects a failed file answer with the server’s message', async () => {
    storeUser();
    server.use(http.get('/api/v1/sample/download/:id', () => HttpResponse.json({ message: 'Table not found' }, { status: 404 })));
    const error = await callAction(actions.download, { values: { id: 't1' } }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'Table not found' });
  });
});
