CREATE TABLE "access_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid,
	"user_id" uuid,
	"email" text,
	"event" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"ip" text,
	"user_agent" text,
	"impersonator_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"hostname" text NOT NULL,
	"require_two_factor" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"group_key" text NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"admin_only" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_pages" (
	"company_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"page_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_pages_company_id_role_id_page_id_pk" PRIMARY KEY("company_id","role_id","page_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'custom' NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"stage" text DEFAULT 'full' NOT NULL,
	"impersonator_user_id" uuid,
	"impersonator_session_id" uuid,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"is_deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_audits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid,
	"impersonator_user_id" uuid,
	"model" text NOT NULL,
	"operation" text NOT NULL,
	"record_id" text,
	"changes" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"email" text NOT NULL,
	"username" text,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"phone" text,
	"password_hash" text,
	"status" text DEFAULT 'invited' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"role_id" uuid NOT NULL,
	"ga_user_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"otp_enabled" boolean DEFAULT false NOT NULL,
	"otp_required" boolean DEFAULT false NOT NULL,
	"otp_secret_enc" text,
	"otp_pending_secret_enc" text,
	"otp_last_step" bigint,
	"mpin_hash" text,
	"ai_notification" boolean DEFAULT false NOT NULL,
	"preferences" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"password_changed_at" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "access_events_company_created_idx" ON "access_events" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_tokens_hash_key" ON "auth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_hostname_key" ON "companies" USING btree ("hostname");--> statement-breakpoint
CREATE INDEX "mail_outbox_company_created_idx" ON "mail_outbox" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_company_name_key" ON "roles" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "roles_company_updated_idx" ON "roles" USING btree ("company_id","updated_at");--> statement-breakpoint
CREATE INDEX "sessions_company_user_idx" ON "sessions" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "sessions_company_created_idx" ON "sessions" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "system_audits_company_created_idx" ON "system_audits" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_company_email_key" ON "users" USING btree ("company_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_company_username_key" ON "users" USING btree ("company_id",lower("username"));--> statement-breakpoint
CREATE INDEX "users_company_created_idx" ON "users" USING btree ("company_id","created_at");