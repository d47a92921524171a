import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, LOCALE_PREFERENCE, localeOf, type Locale } from '../../common/locales';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { withTenant } from '../db/tenant-scope';

/**
 * The language each recipient chose in the console (the `locale` user preference), by email
 * address as written: English for an address of no user of the company, or a user who chose none.
 */
export async function recipientLocales(db: Db, companyId: string, addresses: readonly string[]): Promise<Map<string, Locale>> {
  const byAddress = new Map<string, Locale>(addresses.map((address) => [address, DEFAULT_LOCALE]));
  const wanted = [...new Set(addresses.map((address) => address.trim().toLowerCase()))].filter(Boolean);
  if (wanted.length === 0) return byAddress;
  const rows = await withTenant(companyId, () =>
    db
      .select({ email: users.email, locale: sql<string | null>`${users.preferences} ->> ${LOCALE_PREFERENCE}` })
      .from(users)
      .where(and(eq(users.companyId, companyId), inArray(sql<string>`lower(${users.email})`, wanted))),
  );
  const chosen = new Map(rows.map((row) => [row.email.toLowerCase(), localeOf(row.locale)]));
  for (const address of addresses) byAddress.set(address, chosen.get(address.trim().toLowerCase()) ?? DEFAULT_LOCALE);
  return byAddress;
}

export async function recipientLocale(db: Db, companyId: string, address: string): Promise<Locale> {
  return (await recipientLocales(db, companyId, [address])).get(address) ?? DEFAULT_LOCALE;
}
