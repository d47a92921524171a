-- Lists at any depth (docs/benchmarks.md, "Lists and filters at scale").
--
-- 1. Row-level security the planner estimates right. The policies of migration 0011 read
-- `company_id = <session company> OR <system setting> = 'on'`; PostgreSQL cannot tell which side
-- holds before it runs, so it guessed a quarter to half of a table's rows for one company's list
-- and, for a deep page, chose a parallel sequential scan and a sort on disk over the index. Each
-- policy is now one equality on the session's company, which the planner folds into a one-time
-- filter. Work across companies (sign-in by host name, sweeps, weekly reports) no longer goes
-- through the policy: it runs as a role that bypasses row-level security (server/db/server-role.ts),
-- switched to per statement by server/db/scoped-connection.ts.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT p.tablename, CASE WHEN p.tablename = 'companies' THEN 'id' ELSE 'company_id' END AS column_name
    FROM pg_policies p
    WHERE p.schemaname = current_schema() AND p.policyname = 'company_rows'
  LOOP
    EXECUTE format(
      'ALTER POLICY company_rows ON %I USING (%2$I = (SELECT nullif(current_setting(''app.company_id'', true), '''')::uuid)) '
      'WITH CHECK (%2$I = (SELECT nullif(current_setting(''app.company_id'', true), '''')::uuid))',
      t.tablename, t.column_name);
  END LOOP;
END
$$;
--> statement-breakpoint
-- 2. Every list's order, tie-break included. A list pages in (column, id) order so that its pages
-- are stable; an index on (company_id, column) alone leaves PostgreSQL to sort each run of equal
-- values by id (an incremental sort), and a deep page cannot be read from the index alone. Each
-- index keeps its name and gains the id as its last column; a btree is read backwards as well, so
-- one index serves both directions.
DROP INDEX IF EXISTS "users_company_created_idx";--> statement-breakpoint
CREATE INDEX "users_company_created_idx" ON "users" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "sessions_company_created_idx";--> statement-breakpoint
CREATE INDEX "sessions_company_created_idx" ON "sessions" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "access_events_company_created_idx";--> statement-breakpoint
CREATE INDEX "access_events_company_created_idx" ON "access_events" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "access_events_company_user_created_idx";--> statement-breakpoint
CREATE INDEX "access_events_company_user_created_idx" ON "access_events" USING btree ("company_id","user_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "access_events_company_status_created_idx";--> statement-breakpoint
CREATE INDEX "access_events_company_status_created_idx" ON "access_events" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "access_events_company_event_created_idx";--> statement-breakpoint
CREATE INDEX "access_events_company_event_created_idx" ON "access_events" USING btree ("company_id","event","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "system_audits_company_created_idx";--> statement-breakpoint
CREATE INDEX "system_audits_company_created_idx" ON "system_audits" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "system_audits_company_user_created_idx";--> statement-breakpoint
CREATE INDEX "system_audits_company_user_created_idx" ON "system_audits" USING btree ("company_id","user_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "system_audits_company_model_created_idx";--> statement-breakpoint
CREATE INDEX "system_audits_company_model_created_idx" ON "system_audits" USING btree ("company_id","model","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "system_audits_company_operation_created_idx";--> statement-breakpoint
CREATE INDEX "system_audits_company_operation_created_idx" ON "system_audits" USING btree ("company_id","operation","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "notifications_company_created_idx";--> statement-breakpoint
CREATE INDEX "notifications_company_created_idx" ON "notifications" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "notifications_company_user_created_idx";--> statement-breakpoint
CREATE INDEX "notifications_company_user_created_idx" ON "notifications" USING btree ("company_id","user_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "job_runs_company_queued_idx";--> statement-breakpoint
CREATE INDEX "job_runs_company_queued_idx" ON "job_runs" USING btree ("company_id","queued_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "job_runs_company_workflow_queued_idx";--> statement-breakpoint
CREATE INDEX "job_runs_company_workflow_queued_idx" ON "job_runs" USING btree ("company_id","workflow_id","queued_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "job_runs_company_status_queued_idx";--> statement-breakpoint
CREATE INDEX "job_runs_company_status_queued_idx" ON "job_runs" USING btree ("company_id","status","queued_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "reports_company_created_idx";--> statement-breakpoint
CREATE INDEX "reports_company_created_idx" ON "reports" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "workspaces_company_created_idx";--> statement-breakpoint
CREATE INDEX "workspaces_company_created_idx" ON "workspaces" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "connections_company_created_idx";--> statement-breakpoint
CREATE INDEX "connections_company_created_idx" ON "connections" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "data_tables_company_created_idx";--> statement-breakpoint
CREATE INDEX "data_tables_company_created_idx" ON "data_tables" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "workflows_company_created_idx";--> statement-breakpoint
CREATE INDEX "workflows_company_created_idx" ON "workflows" USING btree ("company_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "shares_company_created_idx";--> statement-breakpoint
CREATE INDEX "shares_company_created_idx" ON "shares" USING btree ("company_id","created_at","id");
