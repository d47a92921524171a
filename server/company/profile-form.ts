import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOGO_FIELD, LOGO_MAX_BYTES, LOGO_TOO_LARGE_MESSAGE } from '../../common/schemas/company';
import { acceptSingleFileForms, readSingleFileForm, type SingleFileFormSpec } from '../http/multipart-form';

/**
 * PUT /company's body: JSON, or a multipart form whose text fields are the same and whose one
 * file field `logo` carries a new logo.
 */

const COMPANY_FORM: SingleFileFormSpec = {
  fileField: LOGO_FIELD,
  fileNoun: 'logo',
  removeFlag: 'removeLogo',
  fieldsDescription: 'company profile fields',
  fileTooLargeMessage: LOGO_TOO_LARGE_MESSAGE,
};

/** Lets this plugin's routes read multipart forms, with limits that fit one logo and the profile's fields. */
export async function acceptCompanyForms(app: FastifyInstance): Promise<void> {
  await acceptSingleFileForms(app, LOGO_MAX_BYTES);
}

export interface CompanyForm {
  /** The text fields, as JSON values or as form fields (strings). */
  fields: Record<string, unknown>;
  /** The bytes of the logo file sent, not yet checked; null when none was sent. */
  logo: Buffer | null;
}

export async function readCompanyForm(request: FastifyRequest): Promise<CompanyForm> {
  const { fields, file } = await readSingleFileForm(request, COMPANY_FORM);
  return { fields, logo: file };
}
