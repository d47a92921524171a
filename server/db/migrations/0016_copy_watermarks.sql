-- How far each incremental copy task has read its source (server/jobs/tasks/watermarks.ts): the
-- greatest value of its watermark column among the rows of its last successful run, as the
-- source's own text. A run reads only rows above it, and moves it only once the destination has
-- the rows. `full_copy` asks the task's next run to read every row once (a "full copy").
CREATE TABLE "copy_watermarks" (
	"company_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"task_id" text NOT NULL,
	"source" text NOT NULL,
	"column_name" text NOT NULL,
	"value" text,
	"full_copy" boolean DEFAULT false NOT NULL,
	"run_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "copy_watermarks_company_id_workflow_id_task_id_pk" PRIMARY KEY("company_id","workflow_id","task_id")
);
--> statement-breakpoint
-- Row-level security as migration 0011 gives every table with a company_id.
ALTER TABLE "copy_watermarks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY company_rows ON "copy_watermarks"
  USING ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on')
  WITH CHECK ("company_id" = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on');
