import { EditButton, Show, TabbedShowLayout, TopToolbar } from 'react-admin';
import { capabilitiesOf, fieldLabelKey, showFields } from '../../src/framework/declaration';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { FieldValue } from '../../src/framework/FieldValue';
import { ActivationToggle } from '../../src/framework/list/ActivationToggle';
import { DictionaryTab } from './DictionaryTab';
import { QualityTab } from './QualityTab';

function ShowActions() {
  const declaration = useDeclaration();
  return <TopToolbar>{capabilitiesOf(declaration).edit && <EditButton />}</TopToolbar>;
}

/**
 * A table's page: its declared details, its data dictionary and its data-quality rules, each a
 * tab with an address of its own (`/tables/{id}/show/dictionary`, `…/quality`).
 */
export default function TableShow() {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  return (
    <Show actions={<ShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.tables.tabs.details">
          {showFields(declaration).map((field) =>
            can.activate && field.source === declaration.activation?.field ? (
              <ActivationToggle
                key={field.source}
                field={field.source}
                label={fieldLabelKey(declaration.name, field)}
                source={field.source}
              />
            ) : (
              <FieldValue key={field.source} field={field} source={field.source} label={fieldLabelKey(declaration.name, field)} />
            ),
          )}
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.tables.tabs.dictionary" path="dictionary">
          <DictionaryTab label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.tables.tabs.quality" path="quality">
          <QualityTab label={false} />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
