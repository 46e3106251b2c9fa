CREATE TABLE `free_time_terms` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`carrier_code` text,
	`port_unlocode` text,
	`equipment` text,
	`free_days` integer NOT NULL,
	`daily_rate_usd` real,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `free_time_terms_org` ON `free_time_terms` (`org_id`);--> statement-breakpoint
ALTER TABLE `tracked` ADD `delivered_at` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `demurrage_phase` text DEFAULT 'none' NOT NULL;