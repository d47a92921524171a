-- Two-factor recovery codes: ten single-use codes per user, each stored as a keyed hash only
-- (server/auth/recovery-codes.ts). Regenerating replaces every code of the user; a used code is
-- kept with its use time so the console can count what is left.
CREATE TABLE "recovery_codes" (
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "recovery_codes_company_id_user_id_code_hash_pk" PRIMARY KEY("company_id","user_id","code_hash")
);
--> statement-breakpoint
-- The same wall between companies as every tenant table (migration 0011).
ALTER TABLE "recovery_codes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY company_rows ON "recovery_codes"
  USING (company_id = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on')
  WITH CHECK (company_id = (SELECT nullif(current_setting('app.company_id', true), '')::uuid) OR (SELECT current_setting('app.system', true)) = 'on');
