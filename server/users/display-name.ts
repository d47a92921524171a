import { sql, type AnyColumn } from 'drizzle-orm';

/**
 * A user's name as lists show it, in SQL: first and last name, or the email when both are empty
 * (the statement's twin of displayName in server/auth/session-user.ts).
 */
export function userNameSql<Name extends string | null = string | null>(person: {
  firstName: AnyColumn;
  lastName: AnyColumn;
  email: AnyColumn;
}) {
  return sql<Name>`coalesce(nullif(trim(${person.firstName} || ' ' || ${person.lastName}), ''), ${person.email})`;
}
