import { Box, Card, CardActionArea, CardContent, FormHelperText, Typography } from '@mui/material';
import { useFormContext } from 'react-hook-form';
import { useInput, useTranslate } from 'react-admin';
import { CONNECTION_TYPE_CATALOGUE, type ConnectionCategory, type ConnectionTypeDeclaration } from '../../common/connections';
import { typeChanged } from './form';
import { useTypeTexts } from './typeTexts';

const CATEGORIES: readonly ConnectionCategory[] = ['database', 'storage', 'compute', 'chat', 'code'];

const byCategory = CATEGORIES.map((category) => ({
  category,
  types: CONNECTION_TYPE_CATALOGUE.filter((declaration) => declaration.category === category),
})).filter((group) => group.types.length > 0);

function TypeCard({
  declaration,
  selected,
  onChoose,
}: {
  declaration: ConnectionTypeDeclaration;
  selected: boolean;
  onChoose: () => void;
}) {
  const texts = useTypeTexts();
  return (
    <Card variant="outlined" sx={{ borderColor: selected ? 'primary.main' : undefined, borderWidth: selected ? 2 : 1 }}>
      <CardActionArea role="radio" aria-checked={selected} data-type={declaration.type} onClick={onChoose} sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="subtitle1" component="span" sx={{ display: 'block', fontWeight: 600 }}>
            {texts.label(declaration)}
          </Typography>
          <Typography variant="body2" component="span" color="text.secondary" sx={{ display: 'block' }}>
            {texts.description(declaration)}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/**
 * The first choice of a new connection: its type, as cards grouped by category with what each
 * type is for. Choosing one starts its settings from their defaults.
 */
export function TypePicker() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const { field, fieldState } = useInput({ source: 'type', isRequired: true });
  const label = translate('resources.connections.fields.type');

  const choose = (declaration: ConnectionTypeDeclaration) => {
    if (field.value === declaration.type) return;
    field.onChange(declaration.type);
    for (const [key, value] of Object.entries(typeChanged(declaration))) setValue(key, value, { shouldDirty: true });
  };

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, width: '100%' }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 1 }}>
        {translate('resources.connections.form.choose_type')}
      </Typography>
      <Box role="radiogroup" aria-label={label}>
        {byCategory.map((group) => (
          <Box key={group.category} sx={{ mb: 2 }} data-category={group.category}>
            <Typography variant="overline" component="h3" color="text.secondary">
              {translate(`resources.connections.categories.${group.category}`)}
            </Typography>
            <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
              {group.types.map((declaration) => (
                <TypeCard
                  key={declaration.type}
                  declaration={declaration}
                  selected={field.value === declaration.type}
                  onChoose={() => choose(declaration)}
                />
              ))}
            </Box>
          </Box>
        ))}
      </Box>
      {fieldState.error?.message && (
        <FormHelperText error>{translate(fieldState.error.message, { _: fieldState.error.message })}</FormHelperText>
      )}
    </Box>
  );
}
