import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../http/errors';

/** Form bodies are a few short fields: these bounds keep a hostile form cheap. */
const FORM_BODY_LIMIT_BYTES = 64 * 1024;
const FORM_FIELDS_MAX = 20;
const FORM_FIELD_MAX_BYTES = 16 * 1024;

type FormFields = Record<string, string | string[]>;

/** `a=1&b=2&b=3` → `{ a: '1', b: ['2', '3'] }`. */
export function parseUrlEncoded(text: string): FormFields {
  const fields: FormFields = Object.create(null);
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > FORM_FIELDS_MAX) throw badRequest(`body: a form may hold at most ${FORM_FIELDS_MAX} fields`);
    add(fields, name, value);
  }
  return { ...fields };
}

function add(fields: FormFields, name: string, value: string) {
  const existing = fields[name];
  if (existing === undefined) fields[name] = value;
  else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

interface MultipartRequest {
  isMultipart(): boolean;
  parts(options?: { limits?: Record<string, number> }): AsyncIterableIterator<MultipartPart>;
}

interface MultipartPart {
  type: 'field' | 'file';
  fieldname: string;
  value?: unknown;
  valueTruncated?: boolean;
  file?: NodeJS.ReadableStream;
}

async function readMultipartFields(request: FastifyRequest & MultipartRequest): Promise<FormFields> {
  const fields: FormFields = Object.create(null);
  try {
    for await (const part of request.parts({
      limits: { fields: FORM_FIELDS_MAX, fieldSize: FORM_FIELD_MAX_BYTES, files: 1, fileSize: 1, parts: FORM_FIELDS_MAX + 1 },
    })) {
      if (part.type === 'file') {
        part.file?.resume();
        throw badRequest(`${part.fieldname}: files are not accepted here`);
      }
      if (part.valueTruncated) throw badRequest(`${part.fieldname}: must be at most ${FORM_FIELD_MAX_BYTES / 1024} KB`);
      add(fields, part.fieldname, typeof part.value === 'string' ? part.value : String(part.value ?? ''));
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw badRequest(`body: a form may hold at most ${FORM_FIELDS_MAX} fields`);
    if (code === 'FST_PROTO_VIOLATION') throw badRequest('body: a field name is not allowed');
    throw badRequest('body: the multipart form could not be read');
  }
  return { ...fields };
}

/**
 * Lets the routes of one plugin take form bodies — application/x-www-form-urlencoded and
 * multipart/form-data (fields only) — besides JSON. The fields land in `request.body` as text,
 * before validation, so the routes' schemas check them like a JSON body.
 */
export async function acceptFormBodies(app: FastifyInstance) {
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      try {
        if (Buffer.byteLength(body as string) > FORM_BODY_LIMIT_BYTES) {
          throw new HttpError(413, `The form is too large (at most ${FORM_BODY_LIMIT_BYTES / 1024} KB)`);
        }
        done(null, parseUrlEncoded(body as string));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
  }
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(fastifyMultipart, { limits: { fields: FORM_FIELDS_MAX, fieldSize: FORM_FIELD_MAX_BYTES, files: 1, fileSize: 1 } });
  }
  app.addHook('preValidation', async (request) => {
    const multipart = request as FastifyRequest & Partial<MultipartRequest>;
    if (typeof multipart.isMultipart === 'function' && multipart.isMultipart() && request.body == null) {
      request.body = await readMultipartFields(multipart as FastifyRequest & MultipartRequest);
    }
  });
}
