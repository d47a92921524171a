import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useRefresh, useTranslate, type Identifier } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { failureText } from '../../src/framework/feedback';
import { relatedListKey } from '../../src/framework/related/declaration';
import { deletePair, savePair, testConnection } from './api';
import { pairsList } from './related';
import type { ConnectionTestResult, Pair } from './types';

export type TestState =
  { state: 'idle' } | { state: 'running' } | { state: 'done'; result: ConnectionTestResult } | { state: 'failed'; message: string };

/**
 * Tests a connection (`POST /connection/{id}/configure`) and keeps the answer for the result
 * panel. A test that reaches the source but fails is an answer too (`ok: false`), shown in the
 * source's words and as the alert. The recorded result then shows in the lists; on a form
 * (`keepRecord`) the record itself is not reloaded, so unsaved edits stay as they are.
 */
export function useConnectionTest(connectionId: Identifier | undefined, { keepRecord = false }: { keepRecord?: boolean } = {}) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const [state, setState] = useState<TestState>({ state: 'idle' });

  const run = useCallback(
    async (settings?: Record<string, unknown>) => {
      if (connectionId === undefined) return;
      setState({ state: 'running' });
      alerts.loading();
      try {
        const { message, data } = await testConnection(connectionId, settings);
        setState({ state: 'done', result: data });
        if (data.ok) alerts.success(message ?? translate('resources.connections.test.ok'));
        else alerts.error(data.message ?? message ?? translate('resources.connections.test.failed'));
      } catch (error) {
        const message = failureText(error);
        setState({ state: 'failed', message });
        alerts.error(message);
      }
      if (keepRecord) {
        // The connections' lists and pages (their pair counts), and the choices the pair dialogs offer.
        await queryClient.invalidateQueries({ queryKey: ['connections'] });
        await queryClient.invalidateQueries({ queryKey: ['connections', 'cards'] });
      } else {
        refresh();
      }
    },
    [connectionId, keepRecord, queryClient, refresh, translate],
  );

  return { state, run, reset: () => setState({ state: 'idle' }) };
}

/**
 * Changes to a connection's pairs (`PUT /source/destination/{id}` to create, rename or
 * (de)activate, `DELETE` to remove), each with the server's message as the alert, then the
 * pairs (and the lists' counts) reloaded. Resolves to whether the change was made.
 */
export function usePairActions() {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);

  const perform = useCallback(
    async (key: string, change: () => Promise<string | undefined>): Promise<boolean> => {
      setBusy(key);
      alerts.loading();
      try {
        alerts.success((await change()) ?? translate('app.form.saved'));
        return true;
      } catch (error) {
        alerts.error(failureText(error));
        return false;
      } finally {
        setBusy(null);
        await queryClient.invalidateQueries({ queryKey: relatedListKey(pairsList) });
        // The lists and the open record both show the connection's pair count.
        await queryClient.invalidateQueries({ queryKey: ['connections'] });
        await queryClient.invalidateQueries({ queryKey: ['source-destinations'] });
      }
    },
    [queryClient, translate],
  );

  return {
    busy,
    add: (body: { name: string; sourceId: string; destinationId: string }) =>
      perform('new', async () => (await savePair(crypto.randomUUID(), body)).message),
    rename: (pair: Pair, name: string) =>
      perform(pair.id, async () => (await savePair(pair.id, { name, sourceId: pair.sourceId, destinationId: pair.destinationId })).message),
    setActive: (pair: Pair, isActive: boolean) =>
      perform(
        pair.id,
        async () => (await savePair(pair.id, { sourceId: pair.sourceId, destinationId: pair.destinationId, isActive })).message,
      ),
    remove: (pair: Pair) => perform(pair.id, () => deletePair(pair.id)),
  };
}
