-- The search function of migration 0011, with its statements written in rather than built and
-- EXECUTEd: plpgsql then plans each once per connection instead of on every call. The plan is
-- the generic one (plan_cache_mode below), reading the trigram index: the server asks this
-- function only for a text few of the company's rows hold (server/http/search.ts
-- rowSecuredWay), and walks the list itself for a common one. Same arguments, same answers, same
-- owner, same search_path.
CREATE OR REPLACE FUNCTION company_search_ids(list text, part text, pattern text) RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER
AS $$
DECLARE
  company uuid := nullif(current_setting('app.company_id', true), '')::uuid;
  ids uuid[];
BEGIN
  IF company IS NULL THEN
    RETURN '{}';
  END IF;
  IF list = 'users' THEN
    SELECT array_agg(id) INTO ids FROM users WHERE company_id = company
      AND (email || E'\x1f' || coalesce(username, '') || E'\x1f' || first_name || ' ' || last_name) ILIKE part
      AND lower(email || E'\x1f' || coalesce(username, '') || E'\x1f' || first_name || ' ' || last_name) LIKE lower(pattern);
  ELSIF list = 'system_audits' THEN
    SELECT array_agg(id) INTO ids FROM system_audits WHERE company_id = company
      AND (coalesce(record_id, '') || E'\x1f' || model || E'\x1f' || operation || E'\x1f' || coalesce(changes::text, '')) ILIKE part
      AND lower(coalesce(record_id, '') || E'\x1f' || model || E'\x1f' || operation || E'\x1f' || coalesce(changes::text, '')) LIKE lower(pattern);
  ELSIF list = 'access_events' THEN
    SELECT array_agg(id) INTO ids FROM access_events WHERE company_id = company
      AND (coalesce(email, '') || E'\x1f' || event || E'\x1f' || coalesce(reason, '') || E'\x1f' || coalesce(ip, '') || E'\x1f' || coalesce(user_agent, '')) ILIKE part
      AND lower(coalesce(email, '') || E'\x1f' || event || E'\x1f' || coalesce(reason, '') || E'\x1f' || coalesce(ip, '') || E'\x1f' || coalesce(user_agent, '')) LIKE lower(pattern);
  ELSE
    RAISE EXCEPTION 'company_search_ids: no search for list %', list;
  END IF;
  RETURN coalesce(ids, '{}');
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION company_search_ids(text, text, text) SET search_path = %I, pg_catalog, pg_temp', current_schema());
  EXECUTE 'ALTER FUNCTION company_search_ids(text, text, text) SET plan_cache_mode = force_generic_plan';
END
$$;
