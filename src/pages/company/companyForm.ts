import type { FieldValues } from 'react-hook-form';
import { COMPANY_PROFILE_FIELDS, LOGO_FIELD, LOGO_MAX_BYTES, LOGO_TYPES, type CompanyProfile } from '../../../common/schemas/company';

function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/**
 * The multipart body of `PUT /company`: the fields that changed (an emptied one as '', which the
 * server reads as "none"), the new logo as the file `logo`, or `removeLogo`.
 */
export function companyForm(values: FieldValues, saved: CompanyProfile): FormData {
  const form = new FormData();
  for (const name of COMPANY_PROFILE_FIELDS) {
    if (textOf(values[name]) !== textOf(saved[name])) form.append(name, textOf(values[name]));
  }
  const logo: unknown = values[LOGO_FIELD];
  if (logo instanceof File) form.append(LOGO_FIELD, logo, logo.name);
  else if (values.removeLogo === true && saved.hasLogo) form.append('removeLogo', 'true');
  return form;
}

/** The form's values for a saved profile: text inputs hold '' for "none". */
export function formRecordOf(profile: CompanyProfile): Record<string, string> {
  const record: Record<string, string> = { id: profile.id };
  for (const name of COMPANY_PROFILE_FIELDS) record[name] = textOf(profile[name]);
  return record;
}

const FORM_FIELDS = new Set<string>([...COMPANY_PROFILE_FIELDS, LOGO_FIELD, 'removeLogo']);

/**
 * A refusal's message as errors on the fields it names ("country: must be …; timezone: …"), so
 * each shows under its input; null when it names none of the form's fields.
 */
export function fieldErrorsOf(message: string): Record<string, string> | null {
  const errors: Record<string, string> = {};
  for (const part of message.split('; ')) {
    const match = /^(\w+): (.+)$/s.exec(part);
    if (match && FORM_FIELDS.has(match[1]) && !errors[match[1]]) errors[match[1]] = match[2];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Why a chosen file cannot be a logo, checked before anything is sent (the server reads its bytes again). */
export function logoProblem(file: File): 'logo_type' | 'logo_size' | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'logo_type';
  if (file.size > LOGO_MAX_BYTES) return 'logo_size';
  return null;
}
