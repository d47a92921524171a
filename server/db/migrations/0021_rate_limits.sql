-- Calls counted against the per-minute limits of API keys and sessions (server/auth/rate-limit.ts),
-- where every server on the database adds its counts: one row per caller and clock minute.
-- `subject` is `api-key:<id>` or `session:<id>`. Rows of past minutes are deleted as servers add
-- new counts, so the table holds little more than the callers of the last minute or two.
CREATE TABLE "rate_limits" (
	"company_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_company_id_subject_window_start_pk" PRIMARY KEY("company_id","subject","window_start")
);
--> statement-breakpoint
-- Row-level security as every table with a company_id has it (migrations 0011 and 0018).
ALTER TABLE "rate_limits" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY company_rows ON "rate_limits"
  USING ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid))
  WITH CHECK ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid));
