import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { COMPANY_PROFILE_FIELDS, companyProfileSchema, type CompanyProfile } from '../../common/schemas/company';
import { recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import type { Db } from '../db/client';
import { companies, companyLogos } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { changedFields, describeIssues } from '../users/rules';
import { logoVersion, readLogo } from './logo';
import { readCompanyForm } from './profile-form';

/** Where the console reads a logo, relative to the API's origin. */
export const LOGO_PATH = '/api/v1/company/logo';

const profileColumns = {
  id: companies.id,
  name: companies.name,
  hostname: companies.hostname,
  contactEmail: companies.contactEmail,
  phone: companies.phone,
  website: companies.website,
  addressLine: companies.addressLine,
  city: companies.city,
  postalCode: companies.postalCode,
  country: companies.country,
  timezone: companies.timezone,
  createdAt: companies.createdAt,
  updatedAt: companies.updatedAt,
  logoSha256: companyLogos.sha256,
};

async function profileRow(db: Db, companyId: string) {
  const [row] = await db
    .select(profileColumns)
    .from(companies)
    .leftJoin(companyLogos, eq(companyLogos.companyId, companies.id))
    .where(eq(companies.id, companyId));
  return row ?? null;
}
type ProfileRow = NonNullable<Awaited<ReturnType<typeof profileRow>>>;

function profileOf({ logoSha256, createdAt, updatedAt, ...row }: ProfileRow): CompanyProfile {
  return {
    ...row,
    hasLogo: logoSha256 !== null,
    logoUrl: logoSha256 === null ? null : `${LOGO_PATH}?v=${logoVersion(logoSha256)}`,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

/** GET /company: the caller's company. */
export async function companyProfile(db: Db, companyId: string): Promise<CompanyProfile> {
  const row = await profileRow(db, companyId);
  if (!row) throw notFound('Company');
  return profileOf(row);
}

/**
 * PUT /company: the profile fields sent, a new logo or its removal. Everything is checked before
 * anything is written, and written in one transaction with its audit entry, so a refused request
 * leaves the company as it was. Answers whether anything changed.
 */
export async function updateCompanyProfile(db: Db, request: FastifyRequest, auth: AuthContext): Promise<boolean> {
  const form = await readCompanyForm(request);
  const parsed = companyProfileSchema.safeParse(form.fields);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error));
  const { removeLogo, ...edit } = parsed.data;
  if (form.logo && removeLogo) throw badRequest('removeLogo: cannot be true while a new logo is sent');
  const logo = form.logo ? readLogo(form.logo) : null;

  const current = await profileRow(db, auth.companyId);
  if (!current) throw notFound('Company');
  const wanted = Object.fromEntries(COMPANY_PROFILE_FIELDS.map((field) => [field, edit[field]]));
  const changes = changedFields(current, wanted) ?? { before: {}, after: {} };
  const profileUpdate = { ...changes.after } as Partial<typeof companies.$inferInsert>;

  // The logo appears in the audit as its digest: which file it was, never its bytes.
  const replaceLogo = logo !== null && logo.sha256 !== current.logoSha256;
  const dropLogo = removeLogo === true && current.logoSha256 !== null;
  if (replaceLogo || dropLogo) {
    changes.before.logo = current.logoSha256;
    changes.after.logo = replaceLogo ? logo.sha256 : null;
  }
  if (Object.keys(changes.after).length === 0) return false;

  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(companies)
      .set({ ...profileUpdate, updatedAt: now })
      .where(eq(companies.id, auth.companyId));
    if (replaceLogo) {
      const stored = { contentType: logo.contentType, bytes: logo.bytes, sha256: logo.sha256, updatedBy: auth.userId, updatedAt: now };
      await tx
        .insert(companyLogos)
        .values({ companyId: auth.companyId, ...stored })
        .onConflictDoUpdate({ target: companyLogos.companyId, set: stored });
    } else if (dropLogo) {
      await tx.delete(companyLogos).where(eq(companyLogos.companyId, auth.companyId));
    }
    await recordAudit(tx, request, {
      companyId: auth.companyId,
      model: 'company',
      operation: 'update_profile',
      recordId: auth.companyId,
      changes,
    });
  });
  return true;
}

export interface StoredLogo {
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

const logoColumns = { contentType: companyLogos.contentType, bytes: companyLogos.bytes, sha256: companyLogos.sha256 };

export async function logoOfCompany(db: Db, companyId: string): Promise<StoredLogo | null> {
  const [row] = await db.select(logoColumns).from(companyLogos).where(eq(companyLogos.companyId, companyId));
  return row ?? null;
}

/** The logo of the active company with this host name; null for none, whatever the reason. */
export async function logoOfHostname(db: Db, hostname: string): Promise<StoredLogo | null> {
  const [row] = await db
    .select(logoColumns)
    .from(companies)
    .innerJoin(companyLogos, eq(companyLogos.companyId, companies.id))
    .where(and(eq(companies.hostname, hostname), eq(companies.isActive, true)));
  return row ?? null;
}
