-- Audit and access-event searches: trigram indexes over the expressions they search
-- (server/audits/system-audits.ts auditSearchText, server/audits/access-events.ts
-- accessEventSearchText), as migration 0005 made for users. Where pg_trgm is not installed
-- (0005 installs it when it can), searches work without them.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS system_audits_search_trgm_idx ON system_audits USING gin ((coalesce(record_id, '''') || E''\x1f'' || model || E''\x1f'' || operation || E''\x1f'' || coalesce(changes::text, '''')) %I.gin_trgm_ops)',
      trgm_schema);
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS access_events_search_trgm_idx ON access_events USING gin ((coalesce(email, '''') || E''\x1f'' || event || E''\x1f'' || coalesce(reason, '''') || E''\x1f'' || coalesce(ip, '''') || E''\x1f'' || coalesce(user_agent, '''')) %I.gin_trgm_ops)',
      trgm_schema);
  END IF;
END
$$;
