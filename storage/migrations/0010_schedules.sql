CREATE TABLE `sailing_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sailing_id` text NOT NULL,
	`call` text,
	`field` text NOT NULL,
	`before` text,
	`after` text,
	`seen_at` text NOT NULL,
	FOREIGN KEY (`sailing_id`) REFERENCES `sailings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sailing_changes_sailing` ON `sailing_changes` (`sailing_id`,`seq`);--> statement-breakpoint
CREATE INDEX `sailing_changes_seen` ON `sailing_changes` (`seen_at`);--> statement-breakpoint
CREATE TABLE `sailings` (
	`id` text PRIMARY KEY NOT NULL,
	`carrier` text NOT NULL,
	`service_code` text NOT NULL,
	`service_name` text NOT NULL,
	`voyage` text NOT NULL,
	`vessel_imo` text,
	`vessel_name` text,
	`calls` text NOT NULL,
	`departs_at` text NOT NULL,
	`arrives_at` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`first_seen_at` text NOT NULL,
	`changed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sailings_carrier_departs` ON `sailings` (`carrier`,`departs_at`);--> statement-breakpoint
CREATE TABLE `schedule_feeds` (
	`carrier` text PRIMARY KEY NOT NULL,
	`last_synced_at` text,
	`last_attempt_at` text,
	`last_error` text,
	`failures` integer DEFAULT 0 NOT NULL
);
