-- Users search: a trigram index over the one expression searches match (server/users/rows.ts,
-- userSearchText), so that `ilike '%text%'` reads the index instead of every user. pg_trgm is a
-- trusted extension: it is created in public when the database offers it and the server's role may
-- create it; where it was installed before (in any schema) that copy is used. Without it searches
-- still work, by reading the users of the company, and the server says so at start.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
     AND EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
    EXCEPTION
      -- Another server migrating at the same moment created it first, or this role may not.
      WHEN unique_violation OR duplicate_object OR insufficient_privilege THEN NULL;
    END;
  END IF;
  SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS users_search_trgm_idx ON users USING gin ((email || E''\x1f'' || coalesce(username, '''') || E''\x1f'' || first_name || '' '' || last_name) %I.gin_trgm_ops)',
      trgm_schema);
  END IF;
END
$$;
