CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"access_user_id" uuid NOT NULL,
	"operations" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_column_choices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"list_key" text NOT NULL,
	"user_id" uuid,
	"hidden" text[] NOT NULL,
	"column_order" text[],
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"link" text,
	"status" text DEFAULT 'unread' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "role_policies" (
	"company_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"actions" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_policies_company_id_role_id_resource_pk" PRIMARY KEY("company_id","role_id","resource")
);
--> statement-breakpoint
CREATE TABLE "user_policies" (
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"actions" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_policies_company_id_user_id_resource_pk" PRIMARY KEY("company_id","user_id","resource")
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"company_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_company_id_workspace_id_user_id_pk" PRIMARY KEY("company_id","workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "avatar" "bytea";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "avatar_type" text;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_company_created_idx" ON "api_keys" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "list_column_choices_key" ON "list_column_choices" USING btree ("company_id","list_key",coalesce("user_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "notifications_company_user_created_idx" ON "notifications" USING btree ("company_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_company_created_idx" ON "notifications" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "workspace_members_company_user_idx" ON "workspace_members" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspaces_company_name_key" ON "workspaces" USING btree ("company_id",lower("name")) WHERE "workspaces"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "workspaces_company_created_idx" ON "workspaces" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "access_events_company_user_created_idx" ON "access_events" USING btree ("company_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "access_events_company_status_created_idx" ON "access_events" USING btree ("company_id","status","created_at");--> statement-breakpoint
CREATE INDEX "system_audits_company_user_created_idx" ON "system_audits" USING btree ("company_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "system_audits_company_model_created_idx" ON "system_audits" USING btree ("company_id","model","created_at");--> statement-breakpoint
CREATE INDEX "users_company_role_idx" ON "users" USING btree ("company_id","role_id");