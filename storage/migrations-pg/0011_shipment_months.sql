CREATE TABLE "shipment_months" (
	"org_id" text NOT NULL,
	"month" text NOT NULL,
	"shipments" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "shipment_months_org_id_month_pk" PRIMARY KEY("org_id","month")
);--> statement-breakpoint
INSERT INTO "shipment_months" ("org_id", "month", "shipments") SELECT "org_id", "month", count(*) FROM "shipment_usage" GROUP BY "org_id", "month";
