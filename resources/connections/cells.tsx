import { Chip, Tooltip } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { stopRowClick } from '../../src/framework/feedback';
import type { Connection } from './types';

export type TestStatus = 'ok' | 'failing' | 'never';

export function testStatusOf(connection: Pick<Connection, 'lastTestOk' | 'lastTestedAt'>): TestStatus {
  if (connection.lastTestOk === null || connection.lastTestOk === undefined) return connection.lastTestedAt ? 'failing' : 'never';
  return connection.lastTestOk ? 'ok' : 'failing';
}

/** The last recorded test: OK with its latency, failing with the source's message on hover, or never tested. */
export function TestStatusChip({ connection }: { connection: Connection }) {
  const translate = useTranslate();
  const status = testStatusOf(connection);
  if (status === 'never')
    return <Chip size="small" variant="outlined" label={translate('resources.connections.status.never')} data-test-status="never" />;
  if (status === 'ok') {
    const label =
      connection.lastTestLatencyMs !== null && connection.lastTestLatencyMs !== undefined
        ? translate('resources.connections.status.ok_latency', { ms: connection.lastTestLatencyMs })
        : translate('resources.connections.status.ok');
    return <Chip size="small" color="success" label={label} data-test-status="ok" />;
  }
  const chip = (
    <Chip size="small" color="error" label={translate('resources.connections.status.failing')} data-test-status="failing" tabIndex={0} />
  );
  return connection.lastTestMessage ? <Tooltip title={connection.lastTestMessage}>{chip}</Tooltip> : chip;
}

/** The last test as the CSV export writes it. */
export function testStatusText(connection: Connection): string {
  const status = testStatusOf(connection);
  if (status === 'ok') return `ok${connection.lastTestLatencyMs != null ? ` (${connection.lastTestLatencyMs} ms)` : ''}`;
  if (status === 'failing') return `failing${connection.lastTestMessage ? `: ${connection.lastTestMessage}` : ''}`;
  return 'never tested';
}

/** A connection's name leading to its page (from a pair, a table). */
export function ConnectionLink({ id, name }: { id: string | null | undefined; name: string | null | undefined }) {
  const createPath = useCreatePath();
  if (!id) return <>{name ?? '—'}</>;
  return (
    <Link to={createPath({ resource: 'connections', type: 'show', id })} onClick={stopRowClick}>
      {name ?? id}
    </Link>
  );
}
