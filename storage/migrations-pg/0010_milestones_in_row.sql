ALTER TABLE "tracked" ADD COLUMN "milestones_of" text;--> statement-breakpoint
ALTER TABLE "tracked" ADD COLUMN "milestones_json" text;--> statement-breakpoint
UPDATE "tracked" SET "milestones_of" = "timelines"."of", "milestones_json" = "timelines"."json" FROM "timelines" WHERE "timelines"."tracked_id" = "tracked"."id";--> statement-breakpoint
DROP TABLE "timelines" CASCADE;
