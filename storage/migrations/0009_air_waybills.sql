CREATE TABLE `air_waybill_events` (
	`waybill_id` text NOT NULL,
	`event_id` text NOT NULL,
	`seq` integer NOT NULL,
	`payload` text NOT NULL,
	`first_seen_at` text NOT NULL,
	PRIMARY KEY(`waybill_id`, `event_id`),
	FOREIGN KEY (`waybill_id`) REFERENCES `air_waybills`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `air_waybills` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`awb` text NOT NULL,
	`airline_iata` text NOT NULL,
	`airline_name` text,
	`connector_status` text,
	`origin` text,
	`destination` text,
	`pieces` integer,
	`weight_kg` real,
	`status` text DEFAULT 'unknown' NOT NULL,
	`exceptions` text DEFAULT '[]' NOT NULL,
	`eta` text,
	`eta_is_estimated` integer,
	`planned_arrival_at` text,
	`departed_at` text,
	`arrived_at` text,
	`delivered_at` text,
	`notified` text DEFAULT '[]' NOT NULL,
	`last_error` text,
	`poll_failures` integer DEFAULT 0 NOT NULL,
	`last_polled_at` text,
	`next_poll_at` text,
	`updated_at` text NOT NULL,
	`added_at` text NOT NULL,
	`adding` integer DEFAULT false NOT NULL,
	`archived_at` text,
	`archived_reason` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `air_waybills_active_awb` ON `air_waybills` (`org_id`,`awb`) WHERE "air_waybills"."archived_at" is null;--> statement-breakpoint
CREATE INDEX `air_waybills_org_updated` ON `air_waybills` (`org_id`,`archived_at`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `air_waybills_next_poll` ON `air_waybills` (`next_poll_at`);