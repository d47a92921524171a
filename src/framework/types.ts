import type { ComponentType, ReactNode } from 'react';
import type { RaRecord } from 'react-admin';
import type { ZodType } from 'zod';
import type { Choice, RelatedRoutes, ResourceRoutes } from '../../common/contract/routes';
import type { ResourceMessages } from '../../providers/i18nProvider';
import type { EntityContract } from '../../common/contract/define';
import { menuIcon } from './icons';
import type { AnyRelatedList } from './related/declaration';

export type {
  BodyEncoding,
  Choice,
  FilterRoute,
  HttpMethod,
  ListSort,
  ResourceRoutes,
  Route,
  RouteSpec,
} from '../../common/contract/routes';
export type { ResourceMessages } from '../../providers/i18nProvider';

/**
 * A resource declared once: everything generic about it (list, filters, cards, forms,
 * activation, delete, export, bulk actions, column choices, permissions, the dataProvider's
 * routes) is derived from this object. See README "Adding a resource".
 */

export type FieldType =
  | 'text'
  | 'longtext'
  | 'email'
  | 'url'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'select'
  | 'multiselect'
  | 'status'
  | 'reference'
  | 'chips'
  | 'json';

/**
 * Where a select's choices come from: a fixed list, the list's filter-props answer
 * (`{ filterProps: 'role' }`), or any route answering a list of `{ id, name }`
 * (`{ route: '/roles/active' }`, read like a list answer).
 */
export type ChoicesSource = readonly Choice[] | { filterProps: string } | { route: string; optionText?: string };

export type ListPlacement = 'shown' | 'hidden' | false;

/** Record paths, as hints; any string is accepted for nested or computed sources. */
export type Source<R> = Extract<keyof R, string> | (string & {});

export interface FieldDeclaration<R extends RaRecord = RaRecord> {
  source: Source<R>;
  type: FieldType;
  /** Translation key; by default `resources.<name>.fields.<source>`. */
  label?: string;
  /** In the list: shown, hidden (offered in the columns button), or not a column. Default 'shown'. */
  list?: ListPlacement;
  /** Sortable column (needs a filter route with `{field}`, or an unpaged list). */
  sortable?: boolean;
  /** In the show view (default true), the edit form and the create form (default false). */
  show?: boolean;
  edit?: boolean;
  create?: boolean;
  /** select, multiselect, status: where the choices come from. */
  choices?: ChoicesSource;
  /** status: chip colour per value. */
  colors?: Record<string, 'default' | 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info'>;
  /** reference: the referenced resource, and which of its fields names a record (default its recordRepresentation). */
  reference?: string;
  referenceText?: string;
  /** chips: the property of each item to show (default 'name'). */
  chipText?: string;
  /** Field rule used when the form has no schema of its own. */
  validate?: ZodType;
  /** The form's starting value from the record (e.g. `workspaceIds` from `workspaces`). */
  fromRecord?: (record: R) => unknown;
  /** Custom rendering in the list and the show view. */
  render?: (record: R) => ReactNode;
  /** A text or longtext the server wrote in English (a notification's message): shown in the reader's language. */
  serverText?: boolean;
  /** The value written to the CSV export; by default derived from the type. */
  exportValue?: (record: R) => unknown;
  /** Translation key of a hint under the input. */
  helperText?: string;
}

export type FilterType = 'search' | 'select' | 'multiselect' | 'autocomplete' | 'boolean' | 'text' | 'date' | 'dateRange';

export interface FilterDeclaration {
  /** The body field. A dateRange uses `startDate` and `endDate` (its source only names it). */
  source: string;
  type: FilterType;
  /** Translation key; by default `resources.<name>.filters.<source>`, then the field's label. */
  label?: string;
  /** select kinds: default `{ filterProps: source }`. */
  choices?: ChoicesSource;
  /**
   * Where the filter sits: by default in the filter row while the row has room for it (search
   * first, then in declared order), else behind "Add filter"; true pins it in the row, false puts
   * it behind the button (./list/filterRoom.ts).
   */
  alwaysOn?: boolean;
}

export interface Capabilities {
  create: boolean;
  edit: boolean;
  show: boolean;
  delete: boolean;
  activate: boolean;
  export: boolean;
  bulkDelete: boolean;
  bulkActivate: boolean;
}

/** Why the console refuses an action on a record before the server is asked: a text key and its values. */
export interface Refusal {
  key: string;
  /** The `smart_count` of a text with plurals (the users holding a role). */
  count?: number;
}

/** The signed-in user, as a refusal rule sees them. */
export interface RefusalCaller {
  id: string | null;
}

/**
 * What the server would refuse of a record, said before anyone tries: the control stays in its
 * place, disabled, with the reason as its tooltip (your own account cannot be deleted; a role
 * users hold cannot be deactivated).
 */
export interface RefusalRules<R extends RaRecord = RaRecord> {
  delete?: (record: R, caller: RefusalCaller) => Refusal | null;
  /** Flipping the activation switch, from the state the record is in. */
  activation?: (record: R, caller: RefusalCaller) => Refusal | null;
}

export interface FormDeclaration {
  /** Validates the form client-side: the contract's create or update body unless it says (a form shaped otherwise than the body). */
  schema?: ZodType;
  /** Where to go after a save (default: the list). */
  redirect?: 'list' | 'show' | 'edit' | false;
  /** Update only: send the changed fields (default) or every field of the form. */
  send?: 'changed' | 'all';
}

export type RecordAction = ComponentType;

export interface ViewOverrides {
  list?: ComponentType;
  show?: ComponentType;
  edit?: ComponentType;
  create?: ComponentType;
}

export interface ResourceDeclaration<R extends RaRecord = RaRecord> {
  /** The entity's contract, when the resource is declared over one. */
  contract?: EntityContract;
  /** react-admin resource name: the URL (`/<name>`) and the translation namespace. */
  name: string;
  icon?: ComponentType;
  recordRepresentation?: string | ((record: R) => string);
  /** Texts per locale; `en` is required. */
  messages: { en: ResourceMessages } & Record<string, ResourceMessages>;
  /** The policy resource that guards it (default: `name`). */
  access?: string;
  fields: readonly FieldDeclaration<R>[];
  /** Exactly the spec's filter table for the list. */
  filters?: readonly FilterDeclaration[];
  routes: ResourceRoutes;
  /** Its lists that belong to another record (from the contract): what getManyReference calls. */
  related?: RelatedRoutes;
  /** Lists of its records' own rows that are no resource (a table's dictionary): what getManyReference answers for them. */
  relatedLists?: readonly AnyRelatedList[];
  /** The activation switch: which boolean field it shows (routes activate/deactivate flip it). */
  activation?: { field: Source<R> };
  /** What the views offer; each defaults to whether its route is declared (bulk ones to their row's, export to true). */
  can?: Partial<Capabilities>;
  refusals?: RefusalRules<R>;
  forms?: { create?: FormDeclaration; edit?: FormDeclaration };
  list?: { perPage?: number; rowClick?: 'edit' | 'show' | false };
  /** Extra buttons: in each row (record context), in the list toolbar, with the selection. */
  actions?: { record?: readonly RecordAction[]; list?: readonly ComponentType[]; bulk?: readonly ComponentType[] };
  /** Replace one view, keep the rest. */
  views?: ViewOverrides;
}

/** What a declaration takes from its entity's contract (common/contract/<entity>.ts) unless it says otherwise. */
type FromContract = 'name' | 'routes' | 'related' | 'access' | 'activation' | 'icon';

/** A field over a contract: its type and sortability come from the contract's field of that source unless given. */
export type ContractFieldDeclaration<R extends RaRecord = RaRecord> = Omit<FieldDeclaration<R>, 'type'> & { type?: FieldType };

/**
 * A declaration over a contract: its name, routes, policy, activation and icon come from the
 * contract, and its fields' types and sortability from the contract's fields.
 */
export type ContractResourceDeclaration<R extends RaRecord = RaRecord> = Omit<ResourceDeclaration<R>, FromContract | 'fields'> &
  Partial<Pick<ResourceDeclaration<R>, FromContract>> & { contract: EntityContract; fields: readonly ContractFieldDeclaration<R>[] };

/** Declares a resource, typed by its record: over its entity's contract, or standing alone (tests, samples). */
export function defineResource<R extends RaRecord = RaRecord>(
  declaration: ResourceDeclaration<R> | ContractResourceDeclaration<R>,
): ResourceDeclaration<R> {
  if (!('contract' in declaration) || !declaration.contract) return declaration as ResourceDeclaration<R>;
  const { contract } = declaration;
  const fields = declaration.fields.map((field) => {
    const known = contract.fields?.find((candidate) => candidate.source === field.source);
    const type = field.type ?? known?.type;
    if (!type) throw new Error(`The field "${field.source}" of ${contract.name} has no type: give one, or declare it in the contract`);
    return { ...field, type, sortable: field.sortable ?? known?.sortable } as FieldDeclaration<R>;
  });
  return {
    ...declaration,
    fields,
    name: declaration.name ?? contract.name,
    routes: declaration.routes ?? contract.routes,
    related: declaration.related ?? contract.related,
    access: declaration.access ?? contract.policy.resource,
    activation: declaration.activation ?? contract.activation,
    icon: declaration.icon ?? (contract.page ? menuIcon(contract.page.icon, 'page') : undefined),
  };
}

/** The registry: every declaration, as MainApp, the dataProvider and the authProvider see it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceDeclaration = ResourceDeclaration<any>;
