import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES, type AvatarType } from '../../common/schemas/users';
import { HttpError } from '../http/errors';
import { acceptSingleFileForms, readSingleFileForm, type SingleFileFormSpec } from '../http/multipart-form';

/**
 * Profile pictures arrive as a file of a multipart form. What a file is, is read from its first
 * bytes: the declared content type and file name are whatever the browser or caller claims.
 */

export const AVATAR_FIELD = 'avatar';
export const AVATAR_TOO_LARGE_MESSAGE = `avatar: must be at most ${AVATAR_MAX_BYTES / (1024 * 1024)} MB`;
export const AVATAR_TYPE_MESSAGE = 'avatar: must be a PNG, JPEG or WebP image';

/** The image type of these bytes by their signature, or null when they are none of the accepted ones. */
export function sniffImageType(bytes: Buffer): AvatarType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const PROFILE_FORM: SingleFileFormSpec = {
  fileField: AVATAR_FIELD,
  fileNoun: 'picture',
  removeFlag: 'removeAvatar',
  fieldsDescription: 'profile fields',
  fileTooLargeMessage: AVATAR_TOO_LARGE_MESSAGE,
};

/**
 * Lets the users routes read multipart forms, with limits that fit one picture and a few text
 * fields. Registered in the users plugin only, unless the app already parses multipart itself.
 */
export async function acceptProfileForms(app: FastifyInstance): Promise<void> {
  await acceptSingleFileForms(app, AVATAR_MAX_BYTES);
}

export interface ProfileForm {
  /** The text fields, as JSON or as form fields (strings). */
  fields: Record<string, unknown>;
  /** The picture sent, checked to be an accepted image; null when none was sent. */
  avatar: { bytes: Buffer; type: AvatarType } | null;
}

/** Reads a profile body, JSON or multipart, and checks the picture in it. */
export async function readProfileForm(request: FastifyRequest): Promise<ProfileForm> {
  const { fields, file: bytes } = await readSingleFileForm(request, PROFILE_FORM);
  if (!bytes) return { fields, avatar: null };
  const type = sniffImageType(bytes);
  if (!type) throw new HttpError(415, AVATAR_TYPE_MESSAGE);
  return { fields, avatar: { bytes, type } };
}
