-- The failing rows a data-quality run kept, rule by rule, in the order the source answered them
-- (server/quality/samples.ts masks the dictionary's `pii` columns before they are stored). A
-- company chooses how many rows a rule keeps (its service setting `qualitySampleRows`, at most
-- 1,000); they are deleted with their run (server/settings/retention.ts).
CREATE TABLE "quality_failing_rows" (
	"company_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"row" jsonb NOT NULL,
	CONSTRAINT "quality_failing_rows_company_id_run_id_rule_id_position_pk" PRIMARY KEY("company_id","run_id","rule_id","position")
);
--> statement-breakpoint
-- Row-level security as migration 0011 gives every table with a company_id.
ALTER TABLE "quality_failing_rows" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY company_rows ON "quality_failing_rows"
  USING ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on')
  WITH CHECK ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on');
