import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import ToggleOffIcon from '@mui/icons-material/ToggleOff';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { Box, List, ListItem, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useCanAccess,
  useDataProvider,
  useGetRecordRepresentation,
  useListContext,
  useRefresh,
  useResourceContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { alerts } from '../../../providers/alerts';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf } from '../declaration';
import { failureText } from '../feedback';
import type { AnyResourceDeclaration, Refusal } from '../types';
import { useCsvExport } from './ExportCsvButton';
import { useRefusalText, useRefusals } from './refusals';

/**
 * The buttons shown with a selection, derived from the declaration: activate and deactivate
 * (an entity with activation), export of the selected rows, delete (a declared delete route),
 * and the declaration's own. Each works row by row, so that what the declaration refuses of a
 * row (refusals.tsx) is left out and said, and one row's failure does not stop the others; the
 * alert then gives the counts and names the rows that were not changed, with their reasons.
 */

/** One row of a selection that was left as it was, and why. */
interface Skipped {
  name: string;
  reason: string;
}

/** The selected records: those of the page shown, and any selected on another page, read by id. */
function useSelectedRecords() {
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider();
  const { data = [], selectedIds } = useListContext();
  return async (): Promise<RaRecord[]> => {
    const onPage = data.filter((record) => selectedIds.includes(record.id));
    const missing = selectedIds.filter((id) => !onPage.some((record) => record.id === id));
    if (missing.length === 0) return onPage;
    const { data: others } = await dataProvider.getMany(resource, { ids: missing });
    return [...onPage, ...others];
  };
}

function useNameOf() {
  const resource = useResourceContext()!;
  const representation = useGetRecordRepresentation(resource);
  return (record: RaRecord) => String(representation(record) ?? record.id);
}

/** `Deleted 3 of 5. Not deleted: Ada (your own account); Bo (in use)` */
function useOutcomeText() {
  const translate = useTranslate();
  return (done: string, notDone: string, count: number, total: number, skipped: Skipped[]) => {
    const counts = translate(done, { smart_count: count, total });
    if (skipped.length === 0) return counts;
    const list = skipped.map((row) => translate('app.list.bulk.skipped_row', { name: row.name, reason: row.reason })).join('; ');
    return `${counts} ${translate(notDone, { list })}`;
  };
}

/** Runs `work` on each record in turn, and gives the ids it did and the rows it failed on. */
async function eachRecord(
  records: RaRecord[],
  nameOf: (record: RaRecord) => string,
  work: (record: RaRecord) => Promise<unknown>,
): Promise<{ done: Identifier[]; failed: Skipped[] }> {
  const done: Identifier[] = [];
  const failed: Skipped[] = [];
  for (const record of records) {
    try {
      await work(record);
      done.push(record.id);
    } catch (error) {
      failed.push({ name: nameOf(record), reason: failureText(error) });
    }
  }
  return { done, failed };
}

/** Activates or deactivates the selected records that are not already so and that the declaration lets change. */
function BulkActivationButton({ active }: { active: boolean }) {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const refresh = useRefresh();
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  const { onUnselectItems } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'activate' });
  const selected = useSelectedRecords();
  const nameOf = useNameOf();
  const refusalOf = useRefusals();
  const refusalText = useRefusalText();
  const outcome = useOutcomeText();
  const [running, setRunning] = useState(false);
  if (!canAccess) return null;
  const field = String(declaration.activation!.field);
  const run = async () => {
    setRunning(true);
    alerts.loading();
    try {
      const records = await selected();
      const toChange = records.filter((record) => Boolean(record[field]) !== active);
      const refused: Skipped[] = [];
      const allowed = toChange.filter((record) => {
        const refusal = refusalOf('activation', record);
        if (refusal) refused.push({ name: nameOf(record), reason: refusalText(refusal) });
        return !refusal;
      });
      const { done, failed } = await eachRecord(allowed, nameOf, (record) => dataProvider.activate(resource, { id: record.id, active }));
      const skipped = [...refused, ...failed];
      const text = outcome(
        active ? 'app.list.bulk.activated' : 'app.list.bulk.deactivated',
        active ? 'app.list.bulk.not_activated' : 'app.list.bulk.not_deactivated',
        done.length + (records.length - toChange.length),
        records.length,
        skipped,
      );
      if (skipped.length === 0) {
        alerts.success(text);
        onUnselectItems();
      } else alerts.error(text);
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
      refresh();
    }
  };
  return (
    <Button label={active ? 'app.list.activate_selected' : 'app.list.deactivate_selected'} onClick={run} disabled={running}>
      {active ? <ToggleOnIcon /> : <ToggleOffIcon />}
    </Button>
  );
}

/** Downloads the selected rows as CSV, with the columns the user sees (as the list's Export does for the whole list). */
function BulkExportButton() {
  const selected = useSelectedRecords();
  const { canAccess, running, run } = useCsvExport(selected);
  if (!canAccess) return null;
  return (
    <Button label="app.list.bulk.export_selected" onClick={run} disabled={running}>
      <DownloadIcon />
    </Button>
  );
}

/**
 * Deletes the selected records after a confirmation that says how many and which of them the
 * declaration refuses (those are left out); one call per record, the rest go on when one fails.
 */
function BulkDeleteSelectedButton() {
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const { selectedIds, onUnselectItems, onSelect } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'delete' });
  const selected = useSelectedRecords();
  const nameOf = useNameOf();
  const refusalOf = useRefusals();
  const refusalText = useRefusalText();
  const outcome = useOutcomeText();
  const [plan, setPlan] = useState<{ allowed: RaRecord[]; refused: Skipped[] } | null>(null);
  const [running, setRunning] = useState(false);
  if (!canAccess) return null;

  const ask = async () => {
    try {
      const records = await selected();
      const refused: Skipped[] = [];
      const allowed = records.filter((record) => {
        const refusal: Refusal | null = refusalOf('delete', record);
        if (refusal) refused.push({ name: nameOf(record), reason: refusalText(refusal) });
        return !refusal;
      });
      setPlan({ allowed, refused });
    } catch (error) {
      alerts.error(failureText(error));
    }
  };

  const run = async () => {
    if (!plan) return;
    const { allowed, refused } = plan;
    setPlan(null);
    setRunning(true);
    alerts.loading(translate('app.list.deleting'));
    const { done, failed } = await eachRecord(allowed, nameOf, (record) =>
      dataProvider.delete(resource, { id: record.id, previousData: record }),
    );
    const skipped = [...refused, ...failed];
    const text = outcome('app.list.bulk.deleted', 'app.list.bulk.not_deleted', done.length, allowed.length + refused.length, skipped);
    if (skipped.length === 0) {
      alerts.success(text);
      onUnselectItems();
    } else {
      alerts.error(text);
      // The rows left are still selected, so that the user sees which they are.
      onSelect(selectedIds.filter((id) => !done.includes(id)));
    }
    setRunning(false);
    refresh();
  };

  return (
    <>
      <Button label="app.list.bulk.delete_selected" onClick={ask} disabled={running} color="error">
        <DeleteIcon />
      </Button>
      <Confirm
        isOpen={plan !== null}
        title={translate('app.list.bulk.delete_title', { smart_count: plan?.allowed.length ?? 0 })}
        content={
          <Box>
            <Typography>{translate('app.list.delete_content')}</Typography>
            {plan && plan.refused.length > 0 && (
              <>
                <Typography sx={{ mt: 1 }}>{translate('app.list.bulk.refused_intro', { smart_count: plan.refused.length })}</Typography>
                <List dense data-refused-rows>
                  {plan.refused.map((row) => (
                    <ListItem key={row.name} sx={{ display: 'list-item', listStyle: 'disc', ml: 2, py: 0 }}>
                      {translate('app.list.bulk.skipped_row', { name: row.name, reason: row.reason })}
                    </ListItem>
                  ))}
                </List>
              </>
            )}
          </Box>
        }
        confirm={plan?.allowed.length ? 'app.list.bulk.delete_confirm' : 'ra.action.close'}
        confirmColor="warning"
        onConfirm={plan?.allowed.length ? run : () => setPlan(null)}
        onClose={() => setPlan(null)}
      />
    </>
  );
}

/** The buttons shown with a selection, as the declaration allows them. */
export function DeclaredBulkActions() {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  return (
    <>
      {can.bulkActivate && <BulkActivationButton active />}
      {can.bulkActivate && <BulkActivationButton active={false} />}
      {can.export && <BulkExportButton />}
      {declaration.actions?.bulk?.map((Action, index) => (
        <Action key={index} />
      ))}
      {can.bulkDelete && <BulkDeleteSelectedButton />}
    </>
  );
}

export function hasBulkActions(declaration: AnyResourceDeclaration): boolean {
  const can = capabilitiesOf(declaration);
  return can.bulkActivate || can.bulkDelete || can.export || (declaration.actions?.bulk?.length ?? 0) > 0;
}
