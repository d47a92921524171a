import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { AVATAR_MAX_BYTES, type AvatarType } from '../../common/schemas/users';
import { badRequest, HttpError } from '../http/errors';

/**
 * Profile pictures arrive as a file of a multipart form. What a file is, is read from its first
 * bytes: the declared content type and file name are whatever the browser or caller claims.
 */

export const AVATAR_FIELD = 'avatar';
export const FORM_FIELDS_MAX = 20;
/** A text field of the profile form is a name or a phone number: far below this. */
export const FORM_FIELD_MAX_BYTES = 16 * 1024;
export const AVATAR_TOO_LARGE_MESSAGE = `avatar: must be at most ${AVATAR_MAX_BYTES / (1024 * 1024)} MB`;
export const AVATAR_TYPE_MESSAGE = 'avatar: must be a PNG, JPEG or WebP image';

/** The image type of these bytes by their signature, or null when they are none of the accepted ones. */
export function sniffImageType(bytes: Buffer): AvatarType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Lets the users routes read multipart forms, with limits that fit one picture and a few text
 * fields. Registered in the users plugin only, unless the app already parses multipart itself.
 */
export async function acceptProfileForms(app: FastifyInstance): Promise<void> {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  await app.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: FORM_FIELDS_MAX, parts: FORM_FIELDS_MAX + 1, fieldSize: FORM_FIELD_MAX_BYTES },
  });
}

export interface ProfileForm {
  /** The text fields, as JSON or as form fields (strings). */
  fields: Record<string, unknown>;
  /** The picture sent, checked to be an accepted image; null when none was sent. */
  avatar: { bytes: Buffer; type: AvatarType } | null;
}

/** Reads a profile body, JSON or multipart, and checks the picture in it. */
export async function readProfileForm(request: FastifyRequest): Promise<ProfileForm> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return { fields: {}, avatar: null };
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('body: must be an object of profile fields');
    const fields = body as Record<string, unknown>;
    if (fields[AVATAR_FIELD] !== undefined) {
      throw badRequest(`${AVATAR_FIELD}: send the picture as a file of a multipart/form-data body (or removeAvatar: true to remove it)`);
    }
    return { fields, avatar: null };
  }

  const fields: Record<string, unknown> = {};
  let bytes: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        // A value cut at the size limit must not be stored as if it were what was typed.
        if (part.valueTruncated) throw new HttpError(413, `${part.fieldname}: must be at most ${FORM_FIELD_MAX_BYTES / 1024} KB`);
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== AVATAR_FIELD) {
        await part.toBuffer().catch(() => undefined);
        throw badRequest(`${part.fieldname}: only one file, named "${AVATAR_FIELD}", may be sent`);
      }
      const content = await part.toBuffer();
      // A file input left empty still sends a part, with no file name and no bytes: no picture.
      if (content.length === 0 && !part.filename) continue;
      if (content.length === 0) throw badRequest(`${AVATAR_FIELD}: the file is empty`);
      bytes = content;
    }
  } catch (err) {
    throw formError(request, err);
  }
  if (!bytes) return { fields, avatar: null };
  const type = sniffImageType(bytes);
  if (!type) throw new HttpError(415, AVATAR_TYPE_MESSAGE);
  return { fields, avatar: { bytes, type } };
}

/** The multipart plugin's limit errors, told in the words of this form. */
function formError(request: FastifyRequest, err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const errors = request.server.multipartErrors;
  if (err instanceof errors.RequestFileTooLargeError) return new HttpError(413, AVATAR_TOO_LARGE_MESSAGE);
  if (err instanceof errors.FilesLimitError) return new HttpError(413, `${AVATAR_FIELD}: only one file may be sent`);
  if (err instanceof errors.FieldsLimitError || err instanceof errors.PartsLimitError) {
    return new HttpError(413, `The form has too many fields (at most ${FORM_FIELDS_MAX})`);
  }
  if (err instanceof errors.PrototypeViolationError) return badRequest('body: a form field has a name that is not allowed');
  return err;
}
