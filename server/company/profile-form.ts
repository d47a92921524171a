import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOGO_FIELD, LOGO_MAX_BYTES, LOGO_TOO_LARGE_MESSAGE } from '../../common/schemas/company';
import { badRequest, HttpError } from '../http/errors';

/**
 * PUT /company's body: JSON, or a multipart form whose text fields are the same and whose one
 * file field `logo` carries a new logo.
 */

const FORM_FIELDS_MAX = 20;
/** A text field of the profile is a name, an address line or a web address: far below this. */
const FORM_FIELD_MAX_BYTES = 16 * 1024;

/** Lets this plugin's routes read multipart forms, with limits that fit one logo and the profile's fields. */
export async function acceptCompanyForms(app: FastifyInstance): Promise<void> {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  await app.register(multipart, {
    limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: FORM_FIELDS_MAX, parts: FORM_FIELDS_MAX + 1, fieldSize: FORM_FIELD_MAX_BYTES },
  });
}

export interface CompanyForm {
  /** The text fields, as JSON values or as form fields (strings). */
  fields: Record<string, unknown>;
  /** The bytes of the logo file sent, not yet checked; null when none was sent. */
  logo: Buffer | null;
}

export async function readCompanyForm(request: FastifyRequest): Promise<CompanyForm> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return { fields: {}, logo: null };
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('body: must be an object of company profile fields');
    const fields = body as Record<string, unknown>;
    if (fields[LOGO_FIELD] !== undefined) {
      throw badRequest(`${LOGO_FIELD}: send the logo as a file of a multipart/form-data body (or removeLogo: true to remove it)`);
    }
    return { fields, logo: null };
  }

  const fields: Record<string, unknown> = {};
  let logo: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        // A value cut at the size limit must not be stored as if it were what was typed.
        if (part.valueTruncated) throw new HttpError(413, `${part.fieldname}: must be at most ${FORM_FIELD_MAX_BYTES / 1024} KB`);
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== LOGO_FIELD) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`${part.fieldname}: only one file, named "${LOGO_FIELD}", may be sent`);
      }
      const content = await part.toBuffer();
      // A file input left empty still sends a part, with no file name and no bytes: no logo.
      if (content.length === 0 && !part.filename) continue;
      if (content.length === 0) throw badRequest(`${LOGO_FIELD}: the file is empty`);
      logo = content;
    }
  } catch (err) {
    throw formError(request, err);
  }
  return { fields, logo };
}

/** The multipart plugin's limit errors, told in the words of this form. */
function formError(request: FastifyRequest, err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const errors = request.server.multipartErrors;
  if (err instanceof errors.RequestFileTooLargeError) return new HttpError(413, LOGO_TOO_LARGE_MESSAGE);
  if (err instanceof errors.FilesLimitError) return new HttpError(413, `${LOGO_FIELD}: only one file may be sent`);
  if (err instanceof errors.FieldsLimitError || err instanceof errors.PartsLimitError) {
    return new HttpError(413, `The form has too many fields (at most ${FORM_FIELDS_MAX})`);
  }
  if (err instanceof errors.PrototypeViolationError) return badRequest('body: a form field has a name that is not allowed');
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return err;
  // A body cut short or not split as its boundary says: the form, not the server, is at fault.
  return badRequest(`body: the multipart form could not be read (${err instanceof Error ? err.message : String(err)})`);
}
