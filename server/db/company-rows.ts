/**
 * Row-level security for every tenant table (migration 0011 and docs/security.md): each table
 * with a company_id column, and companies itself, shows and accepts only the rows of the company
 * named by the session setting app.company_id (work across companies runs as a role that bypasses
 * the policies: server-role.ts). One equality, which the planner folds into a one-time filter
 * and estimates right (migration 0018). It runs
 * after every migration, so a table a later migration adds gets its policy from this one place
 * rather than from SQL written by hand (tests/server/row-level-security.test.ts checks them all).
 * Idempotent: a table that has its policy keeps it.
 */
export const PROTECT_COMPANY_ROWS_SQL = `
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.relname, a.attname, c.relrowsecurity
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND NOT a.attisdropped
      AND a.attname = CASE WHEN c.relname = 'companies' THEN 'id' ELSE 'company_id' END
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
  LOOP
    -- Only where it is off: ALTER TABLE locks the table against every reader and writer, and a
    -- server starting beside others under load would otherwise queue behind their transactions,
    -- stall them, and deadlock with the ones that hold one table and want the next.
    IF NOT t.relrowsecurity THEN
      EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.relname);
    END IF;
    CONTINUE WHEN EXISTS (
      SELECT 1 FROM pg_policies p WHERE p.schemaname = current_schema() AND p.tablename = t.relname AND p.policyname = 'company_rows'
    );
    -- The settings are read in sub-selects: PostgreSQL reads each once per statement (an initial
    -- plan) rather than once per row, which a count over many rows would pay for.
    EXECUTE format(
      'CREATE POLICY company_rows ON %I USING (%2$I = (SELECT nullif(current_setting(''app.company_id'', true), '''')::uuid)) '
      'WITH CHECK (%2$I = (SELECT nullif(current_setting(''app.company_id'', true), '''')::uuid))',
      t.relname, t.attname);
  END LOOP;
END
$$;
`;
