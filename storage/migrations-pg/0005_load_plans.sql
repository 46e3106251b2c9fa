CREATE TABLE "load_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"reference" text,
	"input" json NOT NULL,
	"result" json NOT NULL,
	"status" text NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "load_plans" ADD CONSTRAINT "load_plans_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "load_plans_org_updated" ON "load_plans" USING btree ("org_id","updated_at","id");