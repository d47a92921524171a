import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  DateInput,
  DateTimeInput,
  NumberInput,
  ReferenceInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  useTranslate,
} from 'react-admin';
import { fieldLabelKey } from './declaration';
import type { Choice, FieldDeclaration } from './types';
import { useChoices } from './useChoices';

/** Long choice lists are easier to type into than to scroll. */
const AUTOCOMPLETE_FROM = 12;

/**
 * The choices as shown: a declared list is the product's own words (translation keys), worded in
 * the user's language; choices the server lists (a route, the filter props) are records
 * (workspaces, roles, pairs), shown exactly as they are named, even when a name reads like a
 * translation key or a server text.
 */
function useShownChoices(field: FieldDeclaration): { choices: Choice[]; isPending: boolean } {
  const translate = useTranslate();
  const { choices, isPending } = useChoices(field.choices);
  const declared = Array.isArray(field.choices);
  const text = (name: string) => (declared ? translate(name, { _: name }) : name);
  return { choices: (choices ?? []).map((choice) => ({ id: choice.id, name: text(choice.name) })), isPending };
}

function formatJson(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    // Left as text: the schema says what is wrong with it.
    return text;
  }
}

interface InputProps {
  field: FieldDeclaration;
  resource: string;
}

function ChoiceInput({ field, resource }: InputProps) {
  const { choices, isPending } = useShownChoices(field);
  // Worded above, once: react-admin would otherwise translate every name again.
  const common = {
    source: field.source,
    label: fieldLabelKey(resource, field),
    helperText: field.helperText,
    isPending,
    choices,
    translateChoice: false,
  };
  if (field.type === 'multiselect' || field.type === 'chips') {
    return choices.length >= AUTOCOMPLETE_FROM ? <AutocompleteArrayInput {...common} /> : <SelectArrayInput {...common} />;
  }
  return choices.length >= AUTOCOMPLETE_FROM ? <AutocompleteInput {...common} /> : <SelectInput {...common} />;
}

/** One declared field as a form input, by its type. */
export function FieldInput({ field, resource }: InputProps) {
  const label = fieldLabelKey(resource, field);
  const common = { source: field.source, label, helperText: field.helperText };
  switch (field.type) {
    case 'longtext':
      return <TextInput {...common} multiline minRows={3} />;
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'url':
      return <TextInput {...common} type="url" />;
    case 'number':
      return <NumberInput {...common} />;
    case 'boolean':
      return <BooleanInput {...common} />;
    case 'date':
      return <DateInput {...common} />;
    case 'datetime':
      return <DateTimeInput {...common} />;
    case 'select':
    case 'status':
    case 'multiselect':
    case 'chips':
      return <ChoiceInput field={field} resource={resource} />;
    case 'reference':
      return (
        <ReferenceInput source={field.source} reference={field.reference!}>
          <AutocompleteInput label={label} helperText={field.helperText} filterToQuery={(search: string) => ({ search })} />
        </ReferenceInput>
      );
    case 'json':
      return <TextInput {...common} multiline minRows={4} format={formatJson} parse={parseJson} />;
    case 'text':
    default:
      return <TextInput {...common} />;
  }
}
