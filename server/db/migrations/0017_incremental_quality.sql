-- Incremental and sampled data-quality checks (server/quality/evaluate.ts, docs/api/tables.md).
-- A table may name a watermark column (a timestamp, or an id that only grows): its row rules then
-- read only the rows past what their last result covered. A rule may ask to run on a sample of
-- the table's pages: its results are estimates. Each result says which rows it covered.
ALTER TABLE "data_tables" ADD COLUMN "watermark_column" text;
--> statement-breakpoint
ALTER TABLE "quality_rules" ADD COLUMN "sample_percent" double precision;
--> statement-breakpoint
-- covered_column: the watermark column the rows were read by (null: the table had none);
-- covered_after: the value the rows were read after (null: every row); covered_up_to: the
-- greatest value when the run started, where the rule's next incremental run starts.
ALTER TABLE "quality_results" ADD COLUMN "covered_column" text;
--> statement-breakpoint
ALTER TABLE "quality_results" ADD COLUMN "covered_after" text;
--> statement-breakpoint
ALTER TABLE "quality_results" ADD COLUMN "covered_up_to" text;
--> statement-breakpoint
ALTER TABLE "quality_results" ADD COLUMN "sample_percent" double precision;
--> statement-breakpoint
ALTER TABLE "quality_results" ADD COLUMN "advice" text;
