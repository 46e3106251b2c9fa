CREATE TABLE `carrier_events` (
	`tracked_id` text NOT NULL,
	`event_id` text NOT NULL,
	`payload` text NOT NULL,
	`first_seen_at` text NOT NULL,
	PRIMARY KEY(`tracked_id`, `event_id`),
	FOREIGN KEY (`tracked_id`) REFERENCES `tracked`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `corrections` (
	`id` text PRIMARY KEY NOT NULL,
	`tracked_id` text NOT NULL,
	`event_id` text NOT NULL,
	`before` text NOT NULL,
	`after` text NOT NULL,
	`recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`product` text NOT NULL,
	`type` text NOT NULL,
	`occurred_at` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_org_created` ON `outbox` (`org_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `shipment_usage` (
	`org_id` text NOT NULL,
	`month` text NOT NULL,
	`identifier` text NOT NULL,
	`charged_usd` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`org_id`, `month`, `identifier`)
);
--> statement-breakpoint
CREATE TABLE `tracked` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`parent_id` text,
	`identifier` text NOT NULL,
	`identifier_type` text NOT NULL,
	`container_number` text,
	`bl_number` text,
	`booking_number` text,
	`carrier_code` text,
	`carrier_name` text,
	`carrier_hint_code` text,
	`equipment_owner` text,
	`connector_status` text,
	`connector_notify_requested_at` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'unknown' NOT NULL,
	`stage` text DEFAULT 'unknown' NOT NULL,
	`eta` text,
	`eta_is_estimated` integer,
	`planned_departure_at` text,
	`current_vessel_imo` text,
	`current_vessel_name` text,
	`origin_unlocode` text,
	`destination_unlocode` text,
	`route_ports` text,
	`route_alert` text,
	`delay_bars` text,
	`first_plans` text,
	`customs_hold_reason` text,
	`customs_hold_since` text,
	`iso_type_code` text,
	`container_size` text,
	`equipment_type` text,
	`discharged_at` text,
	`is_demo` integer DEFAULT false NOT NULL,
	`poll_priority` text DEFAULT 'pre_departure' NOT NULL,
	`next_poll_at` text,
	`poll_failures` integer DEFAULT 0 NOT NULL,
	`last_polled_at` text,
	`last_recheck_at` text,
	`updated_at` text NOT NULL,
	`added_at` text NOT NULL,
	`adding` integer DEFAULT false NOT NULL,
	`archived_at` text,
	`archived_reason` text,
	`unresolvable_since` text,
	`unresolved_reason` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracked_active_identifier` ON `tracked` (`org_id`,`identifier_type`,`identifier`) WHERE "tracked"."archived_at" is null and "tracked"."parent_id" is null;--> statement-breakpoint
CREATE INDEX `tracked_org_updated` ON `tracked` (`org_id`,`archived_at`,`updated_at`);--> statement-breakpoint
CREATE INDEX `tracked_parent` ON `tracked` (`parent_id`);--> statement-breakpoint
CREATE INDEX `tracked_next_poll` ON `tracked` (`next_poll_at`);