import ToggleOffIcon from '@mui/icons-material/ToggleOff';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import {
  BulkDeleteButton,
  Button,
  useCanAccess,
  useListContext,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUpdateMany,
} from 'react-admin';
import { alerts } from '../../../providers/alerts';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf } from '../declaration';
import { failureText } from '../feedback';

/** Activates or deactivates every selected record, one activation call each; the list reloads either way. */
function BulkActivationButton({ active }: { active: boolean }) {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const refresh = useRefresh();
  const { selectedIds, onUnselectItems } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'activate' });
  const [updateMany, { isPending }] = useUpdateMany();
  if (!canAccess) return null;
  const field = String(declaration.activation!.field);
  const run = () => {
    alerts.loading();
    updateMany(
      resource,
      { ids: selectedIds, data: { [field]: active } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          alerts.success(translate(active ? 'app.list.activated' : 'app.list.deactivated'));
          onUnselectItems();
        },
        onError: (error) => alerts.error(failureText(error)),
        onSettled: () => refresh(),
      },
    );
  };
  return (
    <Button label={active ? 'app.list.activate_selected' : 'app.list.deactivate_selected'} onClick={run} disabled={isPending}>
      {active ? <ToggleOnIcon /> : <ToggleOffIcon />}
    </Button>
  );
}

/** The buttons shown with a selection, as the declaration allows them. */
export function DeclaredBulkActions() {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  const refresh = useRefresh();
  return (
    <>
      {can.bulkActivate && <BulkActivationButton active />}
      {can.bulkActivate && <BulkActivationButton active={false} />}
      {declaration.actions?.bulk?.map((Action, index) => (
        <Action key={index} />
      ))}
      {can.bulkDelete && (
        <BulkDeleteButton
          mutationMode="pessimistic"
          mutationOptions={{
            onError: (error) => {
              alerts.error(failureText(error));
              refresh();
            },
          }}
        />
      )}
    </>
  );
}

export function hasBulkActions(declaration: ReturnType<typeof useDeclaration>): boolean {
  const can = capabilitiesOf(declaration);
  return can.bulkActivate || can.bulkDelete || (declaration.actions?.bulk?.length ?? 0) > 0;
}
