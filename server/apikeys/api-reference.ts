/**
 * The API reference (docs/api/reference.md), written from the server's OpenAPI document: one
 * table per tag, a line per call with who may make it, what it does, the body it takes and the
 * answer it gives. Nothing in it is written by hand, so it cannot drift from the routes; the
 * area pages beside it (docs/api/<area>.md) explain the rules the shapes cannot say.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  nullable?: boolean;
  additionalProperties?: boolean | Schema;
};

interface Operation {
  summary?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  'x-public'?: boolean;
  'x-admin-only'?: boolean;
  'x-policy'?: { resource: string; action: string };
}

export interface ReferenceDocument {
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Past this many characters a shape shows its outer fields only. */
const SHAPE_MAX = 240;

export function apiReference(document: ReferenceDocument, prefix: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      const call = `\`${method.toUpperCase()} ${path.startsWith(prefix) ? path.slice(prefix.length) : path}\``;
      const line = [call, accessText(operation), cell(operation.summary ?? ''), bodyText(operation), answerText(operation)];
      byTag.set(tag, [...(byTag.get(tag) ?? []), `| ${line.join(' | ')} |`]);
    }
  }
  const sections = [...byTag.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, lines]) =>
      [`## ${tag}`, '', '| Call | Who | What it does | Body | Answer |', '|---|---|---|---|---|', ...lines].join('\n'),
    );
  return [
    '# API reference',
    '',
    `Every call of the API, under \`${prefix}\`, as the server's OpenAPI document describes it (\`GET ${prefix}/openapi/document\`).`,
    'This page is written from that document by `npm run docs:api` and checked against it by the tests; the pages',
    'beside it ([docs/api.md](../api.md) and docs/api/<area>.md) explain the rules. "Who": `public` needs no token,',
    '`signed in` any signed-in user, `admin` an admin role, `resource.action` a role whose policy allows it. In a',
    'shape, `field?` may be left out, `[…]` is a list, and `…` stands for fields left out to keep the line short (the',
    'document has them all).',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

function accessText(operation: Operation): string {
  if (operation['x-public']) return 'public';
  const policy = operation['x-policy'];
  if (policy) return `\`${policy.resource}.${policy.action}\``;
  return operation['x-admin-only'] ? 'admin' : 'signed in';
}

function bodyText(operation: Operation): string {
  const content = operation.requestBody?.content ?? {};
  const schema = content['application/json']?.schema ?? Object.values(content)[0]?.schema;
  return schema ? code(shapeOf(schema)) : '—';
}

function answerText(operation: Operation): string {
  const answers = Object.entries(operation.responses ?? {}).filter(([code]) => /^2/.test(code));
  if (answers.length === 0) return '—';
  return answers
    .map(([status, response]) => {
      const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
      if (!media?.schema) return status;
      return `${status} ${type === 'application/json' ? code(shapeOf(media.schema)) : type}`;
    })
    .join('<br>');
}

/** A schema as a short shape: `{ message, data: { rows: [{ id, name }], count } }`. */
export function shapeOf(schema: Schema): string {
  for (let depth = 4; depth > 0; depth -= 1) {
    const shape = render(schema, depth);
    if (shape.length <= SHAPE_MAX) return shape;
  }
  // Still too long with the outer fields alone: as many of them as fit.
  const outer = render(schema, 1);
  if (!outer.startsWith('{ ')) return outer;
  const kept: string[] = [];
  for (const key of outer.slice(2, -2).split(', ')) {
    if ([...kept, key].join(', ').length > SHAPE_MAX) break;
    kept.push(key);
  }
  return `{ ${kept.join(', ')}, … }`;
}

function render(schema: Schema, depth: number): string {
  const branches = (schema.anyOf ?? schema.oneOf ?? []).filter((branch) => !isNull(branch));
  if (branches.length > 0) {
    const shown = [...new Set(branches.map((branch) => render(branch, depth)))];
    return shown.length === 1 ? shown[0] : shown.join(' | ');
  }
  if (schema.allOf?.length) return render(Object.assign({}, ...schema.allOf) as Schema, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  if (type === 'array' || schema.items) {
    return schema.items ? `[${render(schema.items, depth)}]` : '[…]';
  }
  if (type === 'object' || schema.properties) {
    const fields = Object.entries(schema.properties ?? {});
    if (fields.length === 0) return '{ … }';
    if (depth === 0) return '{ … }';
    const required = new Set(schema.required ?? []);
    const parts = fields.map(([name, field]) => {
      const key = required.has(name) ? name : `${name}?`;
      return isComposite(field) && depth > 1 ? `${key}: ${render(field, depth - 1)}` : key;
    });
    return `{ ${parts.join(', ')} }`;
  }
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  return type ?? 'any';
}

function isComposite(schema: Schema): boolean {
  const branches = (schema.anyOf ?? schema.oneOf ?? []).filter((branch) => !isNull(branch));
  if (branches.length > 0) return branches.some(isComposite);
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  return type === 'object' || type === 'array' || Boolean(schema.properties || schema.items);
}

function isNull(schema: Schema): boolean {
  return schema.type === 'null' || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null);
}

/** A shape as code inside a Markdown table cell. */
function code(text: string): string {
  return `\`${cell(text)}\``;
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
