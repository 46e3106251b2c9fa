CREATE TABLE "timelines" (
	"tracked_id" text PRIMARY KEY NOT NULL,
	"of" text NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "timelines" ADD CONSTRAINT "timelines_tracked_id_tracked_id_fk" FOREIGN KEY ("tracked_id") REFERENCES "tracked"("id") ON DELETE cascade ON UPDATE no action;