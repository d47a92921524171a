import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, HttpError } from './errors';

/**
 * A body that is either JSON or a multipart form whose text fields are the same and whose one
 * file field carries an upload (a company's logo, a user's picture). What the file is, is left to
 * the caller: only its bytes are read here.
 */

export const FORM_FIELDS_MAX = 20;
/** A text field of these forms is a name, an address line, a phone number: far below this. */
export const FORM_FIELD_MAX_BYTES = 16 * 1024;

export interface SingleFileFormSpec {
  /** The name of the one file field, e.g. `logo`. */
  fileField: string;
  /** What the file is called in messages, e.g. "logo" or "picture". */
  fileNoun: string;
  /** The JSON flag that removes the stored file, e.g. `removeLogo`. */
  removeFlag: string;
  /** What the JSON object holds, e.g. "company profile fields". */
  fieldsDescription: string;
  /** Told when the file passes the size limit the multipart plugin was registered with. */
  fileTooLargeMessage: string;
}

export interface SingleFileForm {
  /** The text fields, as JSON values or as form fields (strings). */
  fields: Record<string, unknown>;
  /** The bytes of the file sent, not yet checked; null when none was sent. */
  file: Buffer | null;
}

/**
 * Lets a plugin's routes read multipart forms, with limits that fit one file of at most
 * `maxFileBytes` and a few text fields; unless the app already parses multipart itself.
 */
export async function acceptSingleFileForms(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  await app.register(multipart, {
    limits: { fileSize: maxFileBytes, files: 1, fields: FORM_FIELDS_MAX, parts: FORM_FIELDS_MAX + 1, fieldSize: FORM_FIELD_MAX_BYTES },
  });
}

/** Reads a JSON or multipart body holding text fields and at most one file, `spec.fileField`. */
export async function readSingleFileForm(request: FastifyRequest, spec: SingleFileFormSpec): Promise<SingleFileForm> {
  const { fileField } = spec;
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return { fields: {}, file: null };
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(`body: must be an object of ${spec.fieldsDescription}`);
    const fields = body as Record<string, unknown>;
    if (fields[fileField] !== undefined) {
      throw badRequest(
        `${fileField}: send the ${spec.fileNoun} as a file of a multipart/form-data body (or ${spec.removeFlag}: true to remove it)`,
      );
    }
    return { fields, file: null };
  }

  const fields: Record<string, unknown> = {};
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        // A value cut at the size limit must not be stored as if it were what was typed.
        if (part.valueTruncated) throw new HttpError(413, `${part.fieldname}: must be at most ${FORM_FIELD_MAX_BYTES / 1024} KB`);
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== fileField) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`${part.fieldname}: only one file, named "${fileField}", may be sent`);
      }
      const content = await part.toBuffer();
      // A file input left empty still sends a part, with no file name and no bytes: no file.
      if (content.length === 0 && !part.filename) continue;
      if (content.length === 0) throw badRequest(`${fileField}: the file is empty`);
      file = content;
    }
  } catch (err) {
    throw formError(request, err, spec);
  }
  return { fields, file };
}

/** The multipart plugin's limit errors, told in the words of this form. */
function formError(request: FastifyRequest, err: unknown, spec: SingleFileFormSpec): unknown {
  if (err instanceof HttpError) return err;
  const errors = request.server.multipartErrors;
  if (err instanceof errors.RequestFileTooLargeError) return new HttpError(413, spec.fileTooLargeMessage);
  if (err instanceof errors.FilesLimitError) return new HttpError(413, `${spec.fileField}: only one file may be sent`);
  if (err instanceof errors.FieldsLimitError || err instanceof errors.PartsLimitError) {
    return new HttpError(413, `The form has too many fields (at most ${FORM_FIELDS_MAX})`);
  }
  if (err instanceof errors.PrototypeViolationError) return badRequest('body: a form field has a name that is not allowed');
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return err;
  // A body cut short or not split as its boundary says: the form, not the server, is at fault.
  return badRequest(`body: the multipart form could not be read (${err instanceof Error ? err.message : String(err)})`);
}
