-- Row-level security: a second wall between companies under the application's own company
-- conditions (docs/security.md). Every table with a company_id column, and companies itself,
-- shows and accepts only the rows of the company named by the session setting app.company_id,
-- or every row when app.system is 'on' (sign-in by host name, sweeps, provisioning). Neither
-- set: no tenant row at all. The server sets both before its statements
-- (server/db/scoped-connection.ts) and runs as a role that cannot bypass policies
-- (server/db/server-role.ts); the tables' owner, which runs the migrations, is not subject to
-- them. A later migration adding a table with company_id enables the same policy on it
-- (tests/server/row-level-security.test.ts fails for a table without it).
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.relname, a.attname
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND NOT a.attisdropped
      AND a.attname = CASE WHEN c.relname = 'companies' THEN 'id' ELSE 'company_id' END
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('DROP POLICY IF EXISTS company_rows ON %I', t.relname);
    -- The settings are read in sub-selects: PostgreSQL reads each once per statement (an initial
    -- plan) rather than once per row, which a count over many rows would pay for.
    EXECUTE format(
      'CREATE POLICY company_rows ON %I USING (%2$I = (SELECT nullif(current_setting(''app.company_id'', true), '''')::uuid) OR (SELECT current_setting(''app.system'', true)) = ''on'') '
      'WITH CHECK (%2$I = (SELECT nullif(current_setting(''app.company_id'', true), '''')::uuid) OR (SELECT current_setting(''app.system'', true)) = ''on'')',
      t.relname, t.attname);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The searches of the big lists under row-level security. A policy is applied before any
-- condition that might reveal something about the rows it hides, and ILIKE (with the || and
-- ::text of the indexed expressions) is not known to be free of that, so PostgreSQL would read
-- every row of the company instead of the trigram index (migrations 0005, 0007). This function
-- runs as the tables' owner, reads only the company of the session setting and answers the ids
-- whose text matches: the index is used, and the list's own query takes the rows by id under
-- the policy. The expressions are those of the indexes (server/users/rows.ts userSearchText,
-- server/audits/system-audits.ts auditSearchText, server/audits/access-events.ts
-- accessEventSearchText). `part` is what the index is asked for, `pattern` the whole search.
CREATE OR REPLACE FUNCTION company_search_ids(list text, part text, pattern text) RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER
AS $$
DECLARE
  company uuid := nullif(current_setting('app.company_id', true), '')::uuid;
  found uuid[];
  statement text;
BEGIN
  IF company IS NULL THEN
    RETURN '{}';
  END IF;
  statement := CASE list
    WHEN 'users' THEN
      'SELECT array_agg(id) FROM users WHERE company_id = $1 '
      'AND (email || E''\x1f'' || coalesce(username, '''') || E''\x1f'' || first_name || '' '' || last_name) ILIKE $2 '
      'AND lower(email || E''\x1f'' || coalesce(username, '''') || E''\x1f'' || first_name || '' '' || last_name) LIKE lower($3)'
    WHEN 'system_audits' THEN
      'SELECT array_agg(id) FROM system_audits WHERE company_id = $1 '
      'AND (coalesce(record_id, '''') || E''\x1f'' || model || E''\x1f'' || operation || E''\x1f'' || coalesce(changes::text, '''')) ILIKE $2 '
      'AND lower(coalesce(record_id, '''') || E''\x1f'' || model || E''\x1f'' || operation || E''\x1f'' || coalesce(changes::text, '''')) LIKE lower($3)'
    WHEN 'access_events' THEN
      'SELECT array_agg(id) FROM access_events WHERE company_id = $1 '
      'AND (coalesce(email, '''') || E''\x1f'' || event || E''\x1f'' || coalesce(reason, '''') || E''\x1f'' || coalesce(ip, '''') || E''\x1f'' || coalesce(user_agent, '''')) ILIKE $2 '
      'AND lower(coalesce(email, '''') || E''\x1f'' || event || E''\x1f'' || coalesce(reason, '''') || E''\x1f'' || coalesce(ip, '''') || E''\x1f'' || coalesce(user_agent, '''')) LIKE lower($3)'
  END;
  IF statement IS NULL THEN
    RAISE EXCEPTION 'company_search_ids: no search for list %', list;
  END IF;
  -- EXECUTE plans the statement for these very patterns, so a rare one is read through the index.
  EXECUTE statement INTO found USING company, part, pattern;
  RETURN coalesce(found, '{}');
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION company_search_ids(text, text, text) SET search_path = %I, pg_catalog, pg_temp', current_schema());
END
$$;
