DROP INDEX "tracked_org_updated";--> statement-breakpoint
ALTER TABLE "sailings" ADD COLUMN "version" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracked" ADD COLUMN "version" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "tracked_org_updated" ON "tracked" USING btree ("org_id","archived_at","updated_at","id","version");