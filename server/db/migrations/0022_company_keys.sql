-- Every company table keyed with its company (docs/scaling.md), so that the schema can be
-- distributed by company_id on Citus, which allows a primary key or a unique index on a
-- distributed table only when it includes the distribution column. The keys put id first: a
-- lookup by id alone (a session by its token's id, a user by id) still reads the key's index, and
-- (company_id, id) reads it too. Ids stay random uuids, unique in practice; the database now
-- guarantees them within a company only. tests/server/shard-ready.test.ts keeps it so.
--
-- 1. Rows of no company: a sign-in naming an unknown host name, a mail of the instance itself.
-- They carried a null company_id, which neither a primary key nor Citus (no null distribution
-- value) accepts; they now carry the nil uuid, which no company has (server/db/schema.ts NO_COMPANY).
UPDATE "access_events" SET "company_id" = '00000000-0000-0000-0000-000000000000' WHERE "company_id" IS NULL;
--> statement-breakpoint
UPDATE "mail_outbox" SET "company_id" = '00000000-0000-0000-0000-000000000000' WHERE "company_id" IS NULL;
--> statement-breakpoint
ALTER TABLE "access_events" ALTER COLUMN "company_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "company_id" SET NOT NULL;
--> statement-breakpoint
-- 2. The primary keys, renamed as Drizzle names a key of two columns.
ALTER TABLE "access_events" DROP CONSTRAINT "access_events_pkey", ADD CONSTRAINT "access_events_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_pkey", ADD CONSTRAINT "api_keys_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "auth_tokens" DROP CONSTRAINT "auth_tokens_pkey", ADD CONSTRAINT "auth_tokens_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_pkey", ADD CONSTRAINT "checkout_sessions_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "connections" DROP CONSTRAINT "connections_pkey", ADD CONSTRAINT "connections_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "data_tables" DROP CONSTRAINT "data_tables_pkey", ADD CONSTRAINT "data_tables_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "job_run_steps" DROP CONSTRAINT "job_run_steps_pkey", ADD CONSTRAINT "job_run_steps_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "job_runs" DROP CONSTRAINT "job_runs_pkey", ADD CONSTRAINT "job_runs_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "list_column_choices" DROP CONSTRAINT "list_column_choices_pkey", ADD CONSTRAINT "list_column_choices_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "list_saved_views" DROP CONSTRAINT "list_saved_views_pkey", ADD CONSTRAINT "list_saved_views_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_pkey", ADD CONSTRAINT "mail_outbox_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_pkey", ADD CONSTRAINT "notifications_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "quality_results" DROP CONSTRAINT "quality_results_pkey", ADD CONSTRAINT "quality_results_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "quality_rules" DROP CONSTRAINT "quality_rules_pkey", ADD CONSTRAINT "quality_rules_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "quality_runs" DROP CONSTRAINT "quality_runs_pkey", ADD CONSTRAINT "quality_runs_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "report_attachments" DROP CONSTRAINT "report_attachments_pkey", ADD CONSTRAINT "report_attachments_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_pkey", ADD CONSTRAINT "reports_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "roles" DROP CONSTRAINT "roles_pkey", ADD CONSTRAINT "roles_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_pkey", ADD CONSTRAINT "sessions_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "shares" DROP CONSTRAINT "shares_pkey", ADD CONSTRAINT "shares_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "source_destinations" DROP CONSTRAINT "source_destinations_pkey", ADD CONSTRAINT "source_destinations_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "system_audits" DROP CONSTRAINT "system_audits_pkey", ADD CONSTRAINT "system_audits_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_pkey", ADD CONSTRAINT "users_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "workflows" DROP CONSTRAINT "workflows_pkey", ADD CONSTRAINT "workflows_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
ALTER TABLE "workspaces" DROP CONSTRAINT "workspaces_pkey", ADD CONSTRAINT "workspaces_id_company_id_pk" PRIMARY KEY("id","company_id");
--> statement-breakpoint
-- 3. Unique indexes that held across companies. A key's prefix and a mailed token's hash are
-- random (71 and 256 bits): unique across companies in practice, and found by themselves, so each
-- stays the index's first column. subscriptions_customer_key stays as it is: subscriptions is a
-- reference table on Citus, copied whole to every node, where one Stripe customer paying for one
-- company only can still be enforced (docs/scaling.md).
DROP INDEX "api_keys_prefix_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" USING btree ("prefix","company_id");
--> statement-breakpoint
DROP INDEX "auth_tokens_hash_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "auth_tokens_hash_key" ON "auth_tokens" USING btree ("token_hash","company_id");
