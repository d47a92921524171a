import { useTranslate } from 'react-admin';
import {
  CONNECTION_TYPE_CATALOGUE,
  connectionTypeOf,
  type ConnectionType,
  type ConnectionTypeDeclaration,
  type SettingDeclaration,
} from '../../common/connections';

/**
 * The texts of the shared type catalogue (common/connections.ts) through the console's
 * translations: `resources.connections.types.<type>.label|description` and
 * `resources.connections.settings.<type>.<key>.label|help|placeholder`, each falling back to
 * the catalogue's English.
 */
export function useTypeTexts() {
  const translate = useTranslate();
  const text = (key: string, fallback: string | undefined) => (fallback === undefined ? undefined : translate(key, { _: fallback }));
  return {
    label: (declaration: Pick<ConnectionTypeDeclaration, 'type' | 'label'>) =>
      translate(`resources.connections.types.${declaration.type}.label`, { _: declaration.label }),
    description: (declaration: ConnectionTypeDeclaration) =>
      translate(`resources.connections.types.${declaration.type}.description`, { _: declaration.description }),
    setting: (declaration: Pick<ConnectionTypeDeclaration, 'type'>, setting: SettingDeclaration) => {
      const base = `resources.connections.settings.${declaration.type}.${setting.key}`;
      return {
        label: translate(`${base}.label`, { _: setting.label }),
        help: text(`${base}.help`, setting.help),
        placeholder: text(`${base}.placeholder`, setting.placeholder),
        choice: (choice: { id: string; name: string }) => translate(`${base}.choices.${choice.id}`, { _: choice.name }),
      };
    },
  };
}

/** The connection types as a select's choices (a pair's or a table's connection type). */
export const TYPE_CHOICES = CONNECTION_TYPE_CATALOGUE.map((declaration) => ({ id: declaration.type, name: declaration.label }));

/**
 * A type's setting texts under `resources.connections.settings.<type>`, in the catalogue's own
 * English: the keys another language translates, so that its catalogue and English's agree.
 */
export function catalogueSettingTexts(type: ConnectionType): Record<string, Record<string, string>> {
  return Object.fromEntries(
    connectionTypeOf(type)!.settings.map((setting) => [
      setting.key,
      {
        label: setting.label,
        ...(setting.help ? { help: setting.help } : {}),
        ...(setting.placeholder ? { placeholder: setting.placeholder } : {}),
      },
    ]),
  );
}
