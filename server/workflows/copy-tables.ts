import { DESTINATION_ROWS_COUNTED, type ConnectionTableColumns, type WorkflowDestinationRows } from '../../common/contract/workflows';
import type { WorkflowTask } from '../../common/schemas/workflows';
import { connectionConfig } from '../connections/records';
import { ConnectorError, isTableSource } from '../connectors/types';
import { badRequest } from '../http/errors';
import { askFullCopy } from '../jobs/tasks/watermarks';
import type { AppContext } from '../platform/context';
import type { WorkflowRow } from './records';

/**
 * What the console's copy form and run button read of a workflow's tables: a table's columns
 * (where a merge's keys and a watermark are picked), and how many rows the destination tables of
 * its append copies hold (asked before a run that may repeat them). Both are read-only; the
 * count stops at DESTINATION_ROWS_COUNTED rows and has a short time limit, so a huge table costs
 * no more than a glance.
 */

type Reach = Pick<AppContext, 'db' | 'secrets' | 'connectors'>;

const COUNT_TIMEOUT_MS = 15_000;

export async function tableColumns(
  reach: Reach,
  companyId: string,
  connectionId: string,
  table: string,
): Promise<{ message: string; data: ConnectionTableColumns }> {
  const { db, secrets, connectors } = reach;
  const config = await connectionConfig(db, secrets, companyId, connectionId);
  const columns = await connectors.use(config, async (connector) => {
    if (!isTableSource(connector)) throw badRequest(`id: the connection "${config.name}" holds no tables`);
    return connector.columns(table);
  });
  return {
    message: `${columns.length} columns of ${table}`,
    data: { table, columns: columns.map((column) => ({ name: column.name, dataType: column.dataType })) },
  };
}

export async function destinationRows(
  reach: Reach,
  companyId: string,
  workflow: WorkflowRow,
): Promise<{ message: string; data: WorkflowDestinationRows }> {
  const appends = (workflow.tasks as WorkflowTask[]).filter((task) => task.type === 'copy' && task.to.mode === 'append');
  if (appends.length === 0 || !workflow.destinationId) return { message: 'No append copy', data: { tables: [] } };
  const { db, secrets, connectors } = reach;
  const config = await connectionConfig(db, secrets, companyId, workflow.destinationId);
  const tables = await connectors.use(config, async (connector) => {
    const counted: WorkflowDestinationRows['tables'] = [];
    for (const task of appends) {
      if (task.type !== 'copy') continue;
      const table = task.to.table;
      if (!isTableSource(connector)) {
        counted.push({ task: task.name, table, rows: null, more: false });
        continue;
      }
      try {
        await connector.columns(table);
      } catch (error) {
        counted.push({
          task: task.name,
          table,
          rows: error instanceof ConnectorError && error.kind === 'not_found' ? 0 : null,
          more: false,
        });
        continue;
      }
      try {
        const [row] = await connector.query(
          `select count(*) as n from (select 1 as one from ${connector.tableName(table)} limit ${DESTINATION_ROWS_COUNTED + 1}) as held`,
          [],
          { timeoutMs: COUNT_TIMEOUT_MS, readOnly: true },
        );
        const rows = Number(row?.n ?? 0);
        counted.push({ task: task.name, table, rows: Math.min(rows, DESTINATION_ROWS_COUNTED), more: rows > DESTINATION_ROWS_COUNTED });
      } catch {
        counted.push({ task: task.name, table, rows: null, more: false });
      }
    }
    return counted;
  });
  return { message: `Rows of ${tables.length} destination table${tables.length === 1 ? '' : 's'}`, data: { tables } };
}

/** A run asked as a "full copy": each incremental copy of the workflow reads every row once (server/jobs/tasks/watermarks.ts). */
export async function askFullCopyOf(db: Reach['db'], companyId: string, workflow: WorkflowRow): Promise<void> {
  const incremental = (workflow.tasks as WorkflowTask[]).filter((task) => task.type === 'copy' && task.watermark !== undefined);
  await askFullCopy(
    db,
    { companyId, workflowId: workflow.id },
    incremental.map((task) => task.id),
  );
}
