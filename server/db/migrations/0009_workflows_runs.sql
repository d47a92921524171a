CREATE TABLE "job_run_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"task_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"rows_read" bigint,
	"rows_written" bigint,
	"log" text DEFAULT '' NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"trigger" text NOT NULL,
	"triggered_by" uuid,
	"api_key_id" uuid,
	"attempt" integer DEFAULT 1 NOT NULL,
	"engine" text DEFAULT 'local' NOT NULL,
	"external_run_id" text,
	"git_commit" text,
	"error" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone,
	"worker" text,
	"heartbeat_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"workspace_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"pair_id" uuid NOT NULL,
	"repository_connection_id" uuid,
	"databricks_connection_id" uuid,
	"databricks_job_id" text,
	"tasks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"schedule_cron" text,
	"schedule_timezone" text DEFAULT 'UTC' NOT NULL,
	"max_retries" integer DEFAULT 0 NOT NULL,
	"retry_backoff_seconds" integer DEFAULT 60 NOT NULL,
	"timeout_minutes" integer DEFAULT 60 NOT NULL,
	"concurrency" integer DEFAULT 1 NOT NULL,
	"notify_on_failure" jsonb DEFAULT '{"inApp":true}'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_run_steps_company_run_idx" ON "job_run_steps" USING btree ("company_id","run_id","position");--> statement-breakpoint
CREATE INDEX "job_runs_company_workflow_queued_idx" ON "job_runs" USING btree ("company_id","workflow_id","queued_at");--> statement-breakpoint
CREATE INDEX "job_runs_company_queued_idx" ON "job_runs" USING btree ("company_id","queued_at");--> statement-breakpoint
CREATE INDEX "job_runs_status_idx" ON "job_runs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_company_name_key" ON "workflows" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "workflows_company_created_idx" ON "workflows" USING btree ("company_id","created_at");