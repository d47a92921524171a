import type { ReactElement } from 'react';
import {
  AutocompleteArrayInput,
  DateInput,
  NullableBooleanInput,
  SearchInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  useTranslate,
} from 'react-admin';
import { DATE_RANGE_SOURCES } from '../declaration';
import type { AnyResourceDeclaration, ChoicesSource, FilterDeclaration, FilterType } from '../types';
import { useChoices } from '../useChoices';

interface ChoiceFilterProps {
  source: string;
  label: string;
  kind: Extract<FilterType, 'select' | 'multiselect' | 'autocomplete'>;
  choicesFrom: ChoicesSource;
  /** Read by react-admin's filter form. */
  alwaysOn?: boolean;
}

/** A choice filter whose choices come from the declaration (by default the list's filter-props route). */
function ChoiceFilter({ source, label, kind, choicesFrom }: ChoiceFilterProps) {
  const translate = useTranslate();
  const { choices, isPending } = useChoices(choicesFrom);
  const translated = (choices ?? []).map((choice) => ({ id: choice.id, name: translate(choice.name, { _: choice.name }) }));
  const common = { source, label, choices: translated, isPending, helperText: false as const };
  if (kind === 'multiselect') return <SelectArrayInput {...common} sx={{ minWidth: 180 }} />;
  if (kind === 'autocomplete') return <AutocompleteArrayInput {...common} sx={{ minWidth: 220 }} />;
  return <SelectInput {...common} emptyText="ra.action.clear_input_value" sx={{ minWidth: 160 }} />;
}

/**
 * The filter bar: one react-admin filter input per declared filter (a date range is two
 * inputs, startDate and endDate), labelled by `resources.<name>.filters.<source>`, else the
 * field's label.
 */
export function useFilterInputs(declaration: AnyResourceDeclaration): ReactElement[] {
  const translate = useTranslate();
  const resource = declaration.name;
  const labelOf = (filter: FilterDeclaration) =>
    translate(filter.label ?? `resources.${resource}.filters.${filter.source}`, {
      _: translate(`resources.${resource}.fields.${filter.source}`, { _: filter.source }),
    });

  return (declaration.filters ?? []).flatMap((filter): ReactElement[] => {
    const alwaysOn = filter.alwaysOn ?? true;
    const label = labelOf(filter);
    switch (filter.type) {
      case 'search':
        return [<SearchInput key={filter.source} source={filter.source} alwaysOn={alwaysOn} placeholder={label} aria-label={label} />];
      case 'select':
      case 'multiselect':
      case 'autocomplete':
        return [
          <ChoiceFilter
            key={filter.source}
            source={filter.source}
            label={label}
            kind={filter.type}
            alwaysOn={alwaysOn}
            choicesFrom={filter.choices ?? { filterProps: filter.source }}
          />,
        ];
      case 'boolean':
        return [<NullableBooleanInput key={filter.source} source={filter.source} label={label} alwaysOn={alwaysOn} helperText={false} />];
      case 'date':
        return [<DateInput key={filter.source} source={filter.source} label={label} alwaysOn={alwaysOn} helperText={false} />];
      case 'dateRange': {
        const [start, end] = DATE_RANGE_SOURCES;
        return [
          <DateInput
            key={start}
            source={start}
            label={translate(`resources.${resource}.filters.${start}`, { _: translate('app.list.start_date') })}
            alwaysOn={alwaysOn}
            helperText={false}
          />,
          <DateInput
            key={end}
            source={end}
            label={translate(`resources.${resource}.filters.${end}`, { _: translate('app.list.end_date') })}
            alwaysOn={alwaysOn}
            helperText={false}
          />,
        ];
      }
      case 'text':
      default:
        return [<TextInput key={filter.source} source={filter.source} label={label} alwaysOn={alwaysOn} helperText={false} />];
    }
  });
}
