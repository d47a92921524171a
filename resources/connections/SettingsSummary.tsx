import { Box, Chip, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { connectionTypeOf, settingApplies, type ConnectionTypeDeclaration, type SettingDeclaration } from '../../common/connections';
import { valuesWithDefaults } from './form';
import { useTypeTexts } from './typeTexts';
import type { Connection } from './types';

function SettingValue({
  declaration,
  setting,
  record,
}: {
  declaration: ConnectionTypeDeclaration;
  setting: SettingDeclaration;
  record: Connection;
}) {
  const translate = useTranslate();
  const texts = useTypeTexts().setting(declaration, setting);
  if (setting.secret) {
    const set = (record.secretsSet ?? []).includes(setting.key);
    return (
      <Chip
        size="small"
        variant="outlined"
        label={translate(set ? 'resources.connections.secret_set' : 'resources.connections.secret_unset')}
      />
    );
  }
  const value = record.settings?.[setting.key];
  if (value === undefined || value === null || value === '') return <>—</>;
  if (typeof value === 'boolean') return <>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</>;
  const choice = setting.choices?.find((candidate) => candidate.id === value);
  return <>{choice ? texts.choice(choice) : String(value)}</>;
}

/** The connection's settings as its type declares them: plain ones as they are, secrets only as set or not. */
export function SettingsSummary(_: { label?: false }) {
  const record = useRecordContext<Connection>();
  const translate = useTranslate();
  const texts = useTypeTexts();
  const declaration = record ? connectionTypeOf(record.type) : undefined;
  if (!record || !declaration) return null;
  const applying = valuesWithDefaults(declaration, record.settings);
  const title = translate('resources.connections.form.settings');
  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Typography variant="subtitle1" component="h2">
        {title}
      </Typography>
      <Table size="small" aria-label={title}>
        <TableBody>
          {declaration.settings
            .filter((setting) => settingApplies(setting, applying))
            .map((setting) => (
              <TableRow key={setting.key} data-setting={setting.key}>
                <TableCell component="th" scope="row" sx={{ width: 240 }}>
                  {texts.setting(declaration, setting).label}
                </TableCell>
                <TableCell>
                  <SettingValue declaration={declaration} setting={setting} record={record} />
                </TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
    </Box>
  );
}
