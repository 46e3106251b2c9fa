CREATE TABLE "air_waybill_events" (
	"waybill_id" text NOT NULL,
	"event_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"payload" json NOT NULL,
	"first_seen_at" text NOT NULL,
	CONSTRAINT "air_waybill_events_waybill_id_event_id_pk" PRIMARY KEY("waybill_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "air_waybills" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"awb" text NOT NULL,
	"airline_iata" text NOT NULL,
	"airline_name" text,
	"connector_status" text,
	"origin" text,
	"destination" text,
	"pieces" bigint,
	"weight_kg" double precision,
	"status" text DEFAULT 'unknown' NOT NULL,
	"exceptions" json DEFAULT '[]'::json NOT NULL,
	"eta" text,
	"eta_is_estimated" boolean,
	"planned_arrival_at" text,
	"departed_at" text,
	"arrived_at" text,
	"delivered_at" text,
	"notified" json DEFAULT '[]'::json NOT NULL,
	"last_error" text,
	"poll_failures" bigint DEFAULT 0 NOT NULL,
	"last_polled_at" text,
	"next_poll_at" text,
	"updated_at" text NOT NULL,
	"added_at" text NOT NULL,
	"adding" boolean DEFAULT false NOT NULL,
	"archived_at" text,
	"archived_reason" text
);
--> statement-breakpoint
ALTER TABLE "air_waybill_events" ADD CONSTRAINT "air_waybill_events_waybill_id_air_waybills_id_fk" FOREIGN KEY ("waybill_id") REFERENCES "air_waybills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "air_waybills" ADD CONSTRAINT "air_waybills_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "air_waybills_active_awb" ON "air_waybills" USING btree ("org_id","awb") WHERE "air_waybills"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "air_waybills_org_updated" ON "air_waybills" USING btree ("org_id","archived_at","updated_at","id");--> statement-breakpoint
CREATE INDEX "air_waybills_next_poll" ON "air_waybills" USING btree ("next_poll_at");