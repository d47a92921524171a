import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveUpdates } from '../../../src/app/live/LiveUpdates';
import { liveState, pollUnlessLive } from '../../../src/app/live/liveState';
import { liveProgress } from '../../../src/app/live/liveProgress';
import { server } from '../msw';
import { sessionUser, storeUser } from '../fixtures';

/**
 * The console's live stream: events refresh the queries of the resources they name and patch the
 * open run at once; a dropped stream puts the pages back on their polling and is opened again; a
 * server without the stream (404) is asked once and the console keeps polling.
 */

const encoder = new TextEncoder();

/** An event stream whose events the test writes, and ends, as it goes. */
function eventStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: () => new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } }),
    send(event: string, data: unknown) {
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    end() {
      controller.close();
    },
  };
}

const fetches: Record<string, number> = {};

function Follows({ queryKey, label }: { queryKey: readonly unknown[]; label: string }) {
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      fetches[label] = (fetches[label] ?? 0) + 1;
      return { id: 'run-1', status: 'queued', steps: [{ id: 'step-1', status: 'pending', rowsRead: null }], reads: fetches[label] };
    },
  });
  return (
    <p>
      {label}: {query.data?.status} ({query.data?.reads ?? 0})
    </p>
  );
}

function renderLive(client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })) {
  render(
    <QueryClientProvider client={client}>
      <LiveUpdates sessionKey="token" />
      <Follows queryKey={['job-runs', 'getOne', { id: 'run-1' }]} label="run" />
      <Follows queryKey={['job-runs.ofWorkflow', 'getManyReference', { id: 'wf-1' }]} label="runs of workflow" />
      <Follows queryKey={['notifications', 'bell', 'count']} label="bell" />
      <Follows queryKey={['users', 'getList']} label="users" />
    </QueryClientProvider>,
  );
  return client;
}

beforeEach(() => {
  storeUser(sessionUser());
  for (const key of Object.keys(fetches)) delete fetches[key];
});
afterEach(() => {
  liveState.set('off');
  liveProgress.clear();
});

describe('the live stream', () => {
  it('sends the token in its header, and refreshes what a run event names, at once', async () => {
    const stream = eventStream();
    let token: string | null = null;
    server.use(
      http.get('/api/v1/events', ({ request }) => {
        token = request.headers.get('x-access-token');
        expect(request.headers.get('accept')).toBe('text/event-stream');
        return stream.response();
      }),
    );
    renderLive();
    await waitFor(() => expect(liveState.get()).toBe('open'));
    expect(token).toBe(sessionUser().accessToken);
    expect(pollUnlessLive(1_500)).toBeGreaterThan(1_500);
    await screen.findByText('run: queued (1)');

    act(() => stream.send('run', { resources: ['job-runs', 'workflows'], id: 'run-1', status: 'running' }));
    // The open run shows its new status before any refetch…
    await screen.findByText(/^run: running/);
    // …and every query of the named resources is read again, related lists included; others are left alone.
    await screen.findByText('runs of workflow: queued (2)');
    await screen.findByText(/^run: .* \(2\)$/);
    expect(fetches.bell).toBe(1);
    expect(fetches.users).toBe(1);

    act(() => stream.send('notification', { resources: ['notifications'] }));
    await screen.findByText('bell: queued (2)');
    stream.end();
  });

  it("keeps a step's expected rows for the run page's percentage", async () => {
    const stream = eventStream();
    server.use(http.get('/api/v1/events', () => stream.response()));
    renderLive();
    await waitFor(() => expect(liveState.get()).toBe('open'));
    act(() =>
      stream.send('run', {
        resources: ['job-runs'],
        id: 'run-1',
        step: { id: 'step-1', rowsRead: 500, rowsWritten: 500, rowsTotal: 2_000 },
      }),
    );
    await waitFor(() => expect(liveProgress.totalOf('step-1')).toBe(2_000));
    stream.end();
  });

  it('falls back to polling when the stream drops, reads everything again, and opens it again', async () => {
    const first = eventStream();
    const second = eventStream();
    let calls = 0;
    server.use(
      http.get('/api/v1/events', () => {
        calls += 1;
        return calls === 1 ? first.response() : second.response();
      }),
    );
    renderLive();
    await waitFor(() => expect(liveState.get()).toBe('open'));
    await screen.findByText('bell: queued (1)');
    act(() => first.end());
    await waitFor(() => expect(liveState.get()).not.toBe('open'));
    expect(pollUnlessLive(1_500)).toBe(1_500);
    // Dropped: what the stream stood in for is read again (and polled from then on).
    await screen.findByText('bell: queued (2)');
    await waitFor(() => expect(calls).toBe(2), { timeout: 5_000 });
    await waitFor(() => expect(liveState.get()).toBe('open'));
    second.end();
  });

  it('keeps polling, quietly and without asking again, against a server without the stream', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v1/events', () => {
        calls += 1;
        return HttpResponse.json({ message: 'No API route GET /api/v1/events' }, { status: 404 });
      }),
    );
    renderLive();
    await waitFor(() => expect(liveState.get()).toBe('unavailable'));
    expect(pollUnlessLive(1_500)).toBe(1_500);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls).toBe(1);
  });
});
