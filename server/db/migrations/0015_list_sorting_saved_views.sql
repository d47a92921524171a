-- Sorting every list by its columns: the big lists (access events, job runs) read each order
-- from a (company_id, column, …) index rather than sorting the company's rows. The system
-- audits' model and operation orders already have theirs (migrations 0001, 0002).
CREATE INDEX IF NOT EXISTS "access_events_company_event_created_idx" ON "access_events" USING btree ("company_id","event","created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "job_runs_company_status_queued_idx" ON "job_runs" USING btree ("company_id","status","queued_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "job_runs_company_started_idx" ON "job_runs" USING btree ("company_id","started_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "job_runs_company_ended_idx" ON "job_runs" USING btree ("company_id","ended_at");
--> statement-breakpoint
-- A user's saved views of a list (filters, sort and columns under a name), kept by the server so
-- that they outlive a sign-out as the column choices do.
CREATE TABLE "list_saved_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"list_key" text NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort" jsonb,
	"hidden" text[],
	"column_order" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "list_saved_views_name_key" ON "list_saved_views" USING btree ("company_id","user_id","list_key",lower("name"));
--> statement-breakpoint
-- Row-level security as migration 0011 gives every table with a company_id.
ALTER TABLE "list_saved_views" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY company_rows ON "list_saved_views"
  USING ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on')
  WITH CHECK ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on');
