import type { ZodObject, ZodType } from 'zod';
import type { HttpMethod, RelatedRoutes, ResourceRoutes } from './routes';

/**
 * An entity's contract: what the console and the server agree on, written once. The server
 * answers its routes and guards them with its policy; the console calls them and shows its
 * page; the catalogues of policies and pages, and the menu's icons, are derived from the
 * contracts (common/contract/index.ts). A contract holds no view and no query: the console's
 * declaration (resources/<entity>/index.tsx) says how it shows, the server's code how it is kept.
 */

/** What a policy can allow on a resource. Activation and deactivation count as `update`. */
export const POLICY_ACTIONS = ['read', 'create', 'update', 'delete'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** A resource that policies speak of: a route names it and an action (`['users', 'update']`). */
export interface PolicyResourceDeclaration {
  resource: string;
  /** As the role's policy matrix shows it. */
  label: string;
  /** The actions that make sense for it (audits are read-only). */
  actions: readonly PolicyAction[];
  /** Its place in the policy matrix. */
  order: number;
}

export type PageGroup = 'overview' | 'data' | 'access' | 'company' | 'administration';

/** Menu groups, in the order the navigation shows them. */
export const PAGE_GROUPS: Readonly<Record<string, { title: string; icon: string; order: number }>> = {
  overview: { title: 'Overview', icon: 'dashboard', order: 0 },
  data: { title: 'Data', icon: 'storage', order: 20 },
  access: { title: 'Access control', icon: 'security', order: 80 },
  company: { title: 'Company', icon: 'business', order: 85 },
  administration: { title: 'Administration', icon: 'admin_panel_settings', order: 90 },
} satisfies Record<PageGroup, unknown>;

/** A console page a role can be given: it appears in the menu of the users whose role has it. */
export interface PageDeclaration {
  id: string;
  title: string;
  url: string;
  group: PageGroup;
  /** A Material icon name (snake_case); the console bundles the ones pages use (src/framework/icons.ts). */
  icon: string;
  /** Only admin roles may be given it. */
  adminOnly?: boolean;
  /** Its place in the catalogue: the menu orders pages by group, then by this. */
  order: number;
}

/** A field of an entity's rows as both halves read it: its kind, and what lists may do with it. */
export interface ContractField {
  source: string;
  type: 'text' | 'longtext' | 'email' | 'url' | 'number' | 'boolean' | 'date' | 'datetime' | 'status' | 'reference' | 'chips' | 'json';
  /** Lists may be ordered by it (the filter route's `{field}`). */
  sortable?: boolean;
  /** The search text is looked for in it. */
  searchable?: boolean;
}

export interface EntityContract {
  /** The entity's name: the console's resource and URL (`/<name>`), and its texts' namespace. */
  name: string;
  /**
   * How answers name one record and several (`Label created`, `Labels`): `title` names the row
   * field quoted after the noun (`Workspace "Finance" created`), `updated` the word for a saved
   * change ("saved" unless it says otherwise).
   */
  noun?: { one: string; many: string; title?: string; updated?: string };
  /** A row as the lists and the one-route answer it (the OpenAPI document's answer schemas). */
  row?: ZodObject;
  /** The fields of its rows that lists show, order and search. */
  fields?: readonly ContractField[];
  /**
   * The bodies its create, update, filter and search calls take, checked by the server and the
   * console's forms (a search body where the text is not in the path: `{ search }`).
   */
  bodies?: { create?: ZodType; update?: ZodType; filter?: ZodType; search?: ZodType };
  /** The calls, as the spec writes them. */
  routes: ResourceRoutes;
  /** Its lists that belong to another record (a user's sessions, a table's rules). */
  related?: RelatedRoutes;
  /** Its calls beyond the standard ones (a role's policies and pages), by name. */
  actions?: Readonly<Record<string, ActionDeclaration>>;
  /** The policy resource that guards every call (several entities may share one). */
  policy: PolicyResourceDeclaration;
  /** The menu page that shows it, when it has one of its own. */
  page?: PageDeclaration;
  /** The name its changes carry in the system audit (`model`), when it is changed through the console. */
  audit?: { model: string };
  /** The boolean field the activate and deactivate routes flip. */
  activation?: { field: string };
}

/**
 * A body sent as a multipart/form-data form (a file, and the fields beside it): the server's
 * handler reads the form itself, the console sends a FormData; `parts` describes the form in the
 * OpenAPI document (a file part as `z.string().meta({ format: 'binary' })`).
 */
export interface MultipartBody {
  kind: 'multipart';
  parts: ZodObject;
}

/**
 * An answer that is a file, not JSON (a picture, a CSV download): the server's handler gives its
 * bytes and media type, the console gets the response to read as a Blob or text. `content` names
 * its media types for the OpenAPI document.
 */
export interface FileAnswer {
  kind: 'file';
  description: string;
  content: Readonly<Record<string, { schema: ZodType }>>;
}

/**
 * A call of an entity beyond the standard ones: where it is, what it takes and what it answers.
 * The server registers it from this (server/platform/action-route.ts), the console calls it
 * through its dataProvider (`callAction`), and both are typed by its schemas.
 */
export interface ActionDeclaration {
  /** A template under /api/v1: `{id}` is a record's id, any other placeholder a value the caller gives. */
  path: string;
  method: HttpMethod;
  /** Its summary in the OpenAPI document. */
  summary: string;
  /** `'public'`: anyone may call it, signed in or not (the console sends no token); else a signed-in caller. */
  access?: 'public';
  /** The body it takes: a JSON body's schema, or a multipart form. */
  body?: ZodType | MultipartBody;
  /** The query it takes (`?userId=`), as an object schema. */
  query?: ZodType;
  /** The check of each path placeholder other than `{id}` (a username, a number of days): the server refuses to start without it. */
  params?: Readonly<Record<string, ZodType>>;
  /** The schema of its answer's `data`; without it (and without `answer`), it answers `{ message }` alone. */
  data?: ZodType;
  /** The whole answer, where it holds more than `{ message, data }` (the own profile's `user` beside `data`), or a file. */
  answer?: ZodType | FileAnswer;
  /**
   * Its success status: 200 unless given (201 for a call that creates). Several (`[201, 200]`):
   * the handler says which with its answer (created, or changed).
   */
  status?: number | readonly [number, ...number[]];
}

/** Whether an action's body is a multipart form. */
export function isMultipartBody(body: ActionDeclaration['body']): body is MultipartBody {
  return (body as Partial<MultipartBody> | undefined)?.kind === 'multipart';
}

/** Whether an action answers a file. */
export function isFileAnswer(answer: ActionDeclaration['answer']): answer is FileAnswer {
  return (answer as Partial<FileAnswer> | undefined)?.kind === 'file';
}

/** Declares one action (typed, and kept as written). */
export function defineAction<const A extends ActionDeclaration>(action: A): A {
  return action;
}

/** A screen that is not an entity (dashboard, settings, …): its menu page and the policy that guards it. */
export interface ScreenContract {
  page: PageDeclaration;
  policy?: PolicyResourceDeclaration;
}

/** Declares an entity's contract (typed, and kept as written). */
export function defineContract<const C extends EntityContract>(contract: C): C {
  return contract;
}

export function defineScreen<const S extends ScreenContract>(screen: S): S {
  return screen;
}

/** A policy resource offering every action. */
export function everyAction(resource: string, label: string, order: number): PolicyResourceDeclaration {
  return { resource, label, actions: POLICY_ACTIONS, order };
}
