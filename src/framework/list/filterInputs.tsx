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
import { FILTER_INPUT_WIDTHS, useInlineFilters } from './filterRoom';

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
  // Fixed widths, so that the filter row can be planned (./filterRoom.ts): a long choice is cut with an ellipsis.
  if (kind === 'multiselect') return <SelectArrayInput {...common} sx={{ width: FILTER_INPUT_WIDTHS.multiselect }} />;
  if (kind === 'autocomplete') return <AutocompleteArrayInput {...common} sx={{ width: FILTER_INPUT_WIDTHS.autocomplete }} />;
  return <SelectInput {...common} emptyText="ra.action.clear_input_value" sx={{ width: FILTER_INPUT_WIDTHS.select }} />;
}

/**
 * The filter bar: one react-admin filter input per declared filter (a date range is two
 * inputs, startDate and endDate), in the row while it has room (./filterRoom.ts), labelled by `resources.<name>.filters.<source>`, else the
 * field's label.
 */
export function useFilterInputs(declaration: AnyResourceDeclaration): ReactElement[] {
  const translate = useTranslate();
  const resource = declaration.name;
  const labelOf = (filter: FilterDeclaration) =>
    translate(filter.label ?? `resources.${resource}.filters.${filter.source}`, {
      _: translate(`resources.${resource}.fields.${filter.source}`, { _: filter.source }),
    });

  const inline = useInlineFilters(declaration.filters);
  return (declaration.filters ?? []).flatMap((filter): ReactElement[] => {
    const alwaysOn = inline.has(filter.source);
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
        return [
          <NullableBooleanInput
            key={filter.source}
            source={filter.source}
            label={label}
            alwaysOn={alwaysOn}
            helperText={false}
            sx={{ width: FILTER_INPUT_WIDTHS.boolean }}
          />,
        ];
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
        return [
          <TextInput
            key={filter.source}
            source={filter.source}
            label={label}
            alwaysOn={alwaysOn}
            helperText={false}
            sx={{ width: FILTER_INPUT_WIDTHS.text }}
          />,
        ];
    }
  });
}
