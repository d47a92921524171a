ALTER TABLE "workspace_members" ADD COLUMN "user_created_at" timestamp with time zone;--> statement-breakpoint
UPDATE "workspace_members" AS m SET "user_created_at" = u."created_at" FROM "users" AS u WHERE u."company_id" = m."company_id" AND u."id" = m."user_id";--> statement-breakpoint
DELETE FROM "workspace_members" WHERE "user_created_at" IS NULL;--> statement-breakpoint
ALTER TABLE "workspace_members" ALTER COLUMN "user_created_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "workspace_members_company_workspace_user_created_idx" ON "workspace_members" USING btree ("company_id","workspace_id","user_created_at","user_id");
