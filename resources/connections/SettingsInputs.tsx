import { Box, Typography } from '@mui/material';
import { useWatch } from 'react-hook-form';
import { BooleanInput, NumberInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { connectionTypeOf, settingApplies, type SettingDeclaration, type SettingsFormDeclaration } from '../../common/connections';
import { valuesWithDefaults } from './form';
import { useTypeTexts } from './typeTexts';

interface SettingInputProps {
  declaration: SettingsFormDeclaration;
  setting: SettingDeclaration;
  /** A secret already stored: blank keeps it, so it is not required here. */
  kept: boolean;
}

/** One declared setting as the input of its kind. */
function SettingInput({ declaration, setting, kept }: SettingInputProps) {
  const translate = useTranslate();
  const texts = useTypeTexts().setting(declaration, setting);
  const helperText = kept ? translate('resources.connections.form.secret_kept') : (texts.help ?? false);
  const common = {
    source: `settings.${setting.key}`,
    label: texts.label,
    helperText,
    isRequired: Boolean(setting.required) && !(setting.secret && kept),
    placeholder: texts.placeholder,
  };
  switch (setting.kind) {
    case 'number':
      return <NumberInput {...common} min={setting.min} max={setting.max} step={1} />;
    case 'boolean':
      return <BooleanInput source={common.source} label={common.label} helperText={common.helperText} />;
    case 'select':
      return <SelectInput {...common} choices={(setting.choices ?? []).map((choice) => ({ id: choice.id, name: texts.choice(choice) }))} />;
    case 'password':
      // react-admin's PasswordInput passes its reveal button through a prop MUI 9 no longer reads.
      return <TextInput {...common} type="password" autoComplete="new-password" />;
    case 'url':
      return <TextInput {...common} type="url" />;
    case 'text':
    default:
      return <TextInput {...common} />;
  }
}

export interface SettingsInputsProps {
  keptSecrets: ReadonlySet<string>;
  /** The type's declaration as the caller has it (the marketplace's, as the server declares it); else the catalogue's, by the form's `type`. */
  declaration?: SettingsFormDeclaration;
}

/**
 * The settings form of the chosen type, generated from its declared settings: each of its kind,
 * shown only where its `when` applies, required ones marked, secrets as password inputs (on an
 * edit, a stored one may be left blank to keep it).
 */
export function SettingsInputs({ keptSecrets, declaration: given }: SettingsInputsProps) {
  const translate = useTranslate();
  const type = useWatch({ name: 'type' }) as string | undefined;
  const values = useWatch({ name: 'settings' }) as Record<string, unknown> | undefined;
  const declaration = given ?? (type ? connectionTypeOf(type) : undefined);
  if (!declaration) return null;
  const applying = valuesWithDefaults(declaration, values);
  const shown = declaration.settings.filter((setting) => settingApplies(setting, applying));
  return (
    <Box
      component="section"
      aria-label={translate('resources.connections.form.settings')}
      sx={{ width: '100%' }}
      data-settings-of={declaration.type}
    >
      <Typography variant="subtitle1" component="h3" sx={{ mt: 1, mb: 1 }}>
        {translate('resources.connections.form.settings')}
      </Typography>
      {shown.map((setting) => (
        <SettingInput
          key={`${declaration.type}.${setting.key}`}
          declaration={declaration}
          setting={setting}
          kept={Boolean(setting.secret && keptSecrets.has(setting.key))}
        />
      ))}
    </Box>
  );
}
