CREATE TABLE "connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"workspace_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"is_source" boolean DEFAULT false NOT NULL,
	"is_destination" boolean DEFAULT false NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets_enc" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_tested_at" timestamp with time zone,
	"last_test_ok" boolean,
	"last_test_latency_ms" integer,
	"last_test_message" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_tables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"workspace_id" uuid,
	"endpoint" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"discovered_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quality_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"table_id" uuid NOT NULL,
	"rule_name" text NOT NULL,
	"function_name" text NOT NULL,
	"column_name" text,
	"severity" text NOT NULL,
	"status" text NOT NULL,
	"observed" text,
	"rows_scanned" bigint,
	"rows_failed" bigint,
	"failed_share" double precision,
	"sample" jsonb,
	"query" text,
	"message" text,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quality_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"table_id" uuid NOT NULL,
	"name" text NOT NULL,
	"function_type" text NOT NULL,
	"function_name" text NOT NULL,
	"column_name" text,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"severity" text DEFAULT 'fail' NOT NULL,
	"tolerance" double precision DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quality_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"table_id" uuid NOT NULL,
	"job_run_id" uuid,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"created_by" uuid
);
--> statement-breakpoint
CREATE TABLE "source_destinations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"source_id" uuid NOT NULL,
	"destination_id" uuid NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "table_columns" (
	"company_id" uuid NOT NULL,
	"table_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"data_type" text NOT NULL,
	"nullable" boolean DEFAULT true NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"business_name" text DEFAULT '' NOT NULL,
	"sensitivity" text DEFAULT 'internal' NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"present" boolean DEFAULT true NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "table_columns_company_id_table_id_name_pk" PRIMARY KEY("company_id","table_id","name")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "connections_company_name_key" ON "connections" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "connections_company_created_idx" ON "connections" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "connections_company_workspace_idx" ON "connections" USING btree ("company_id","workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_tables_company_connection_endpoint_key" ON "data_tables" USING btree ("company_id","connection_id","endpoint");--> statement-breakpoint
CREATE INDEX "data_tables_company_created_idx" ON "data_tables" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "quality_results_company_run_idx" ON "quality_results" USING btree ("company_id","run_id");--> statement-breakpoint
CREATE INDEX "quality_results_company_rule_ended_idx" ON "quality_results" USING btree ("company_id","rule_id","ended_at");--> statement-breakpoint
CREATE INDEX "quality_rules_company_table_idx" ON "quality_rules" USING btree ("company_id","table_id","created_at");--> statement-breakpoint
CREATE INDEX "quality_runs_company_table_started_idx" ON "quality_runs" USING btree ("company_id","table_id","started_at");--> statement-breakpoint
CREATE INDEX "quality_runs_company_job_run_idx" ON "quality_runs" USING btree ("company_id","job_run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "source_destinations_company_pair_key" ON "source_destinations" USING btree ("company_id","source_id","destination_id");--> statement-breakpoint
CREATE INDEX "source_destinations_company_destination_idx" ON "source_destinations" USING btree ("company_id","destination_id");