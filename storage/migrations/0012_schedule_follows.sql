CREATE TABLE `cutoff_notices` (
	`org_id` text NOT NULL,
	`sailing_id` text NOT NULL,
	`call` text NOT NULL,
	`code` text NOT NULL,
	`cut_off_at` text NOT NULL,
	`notified_at` text NOT NULL,
	PRIMARY KEY(`org_id`, `sailing_id`, `call`, `code`)
);
--> statement-breakpoint
CREATE TABLE `rate_lines` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sheet_id` text NOT NULL,
	`origin` text NOT NULL,
	`destination` text NOT NULL,
	`equipment` text,
	`basis` text NOT NULL,
	`rate` real,
	`minimum` real,
	`breaks` text,
	`transit_days` real,
	`distance_km` real,
	FOREIGN KEY (`sheet_id`) REFERENCES `rate_sheets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rate_lines_sheet` ON `rate_lines` (`sheet_id`);--> statement-breakpoint
CREATE INDEX `rate_lines_lane` ON `rate_lines` (`origin`,`destination`);--> statement-breakpoint
CREATE TABLE `rate_sheets` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`carrier` text NOT NULL,
	`mode` text NOT NULL,
	`currency` text NOT NULL,
	`valid_from` text NOT NULL,
	`valid_to` text NOT NULL,
	`source_file` text NOT NULL,
	`imported_at` text NOT NULL,
	`created_at` text NOT NULL,
	`digest` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`line_count` integer NOT NULL,
	`surcharge_count` integer NOT NULL,
	`expiring_raised_for` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rate_sheets_identity` ON `rate_sheets` (`org_id`,`carrier`,`mode`,`name`);--> statement-breakpoint
CREATE INDEX `rate_sheets_org_mode` ON `rate_sheets` (`org_id`,`mode`,`valid_to`);--> statement-breakpoint
CREATE INDEX `rate_sheets_org_imported` ON `rate_sheets` (`org_id`,`imported_at`);--> statement-breakpoint
CREATE INDEX `rate_sheets_valid_to` ON `rate_sheets` (`valid_to`);--> statement-breakpoint
CREATE TABLE `rate_surcharges` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sheet_id` text NOT NULL,
	`code` text NOT NULL,
	`basis` text NOT NULL,
	`amount` real NOT NULL,
	`equipment` text,
	`origin` text,
	`destination` text,
	`valid_from` text,
	`valid_to` text,
	FOREIGN KEY (`sheet_id`) REFERENCES `rate_sheets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rate_surcharges_sheet` ON `rate_surcharges` (`sheet_id`);--> statement-breakpoint
CREATE TABLE `reliability_states` (
	`scope` text PRIMARY KEY NOT NULL,
	`armed` integer DEFAULT true NOT NULL,
	`reliability` real,
	`calls` integer DEFAULT 0 NOT NULL,
	`measured_at` text,
	`dropped_at` text
);
--> statement-breakpoint
CREATE TABLE `schedule_follows` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`kind` text NOT NULL,
	`sailing_id` text,
	`carrier` text,
	`origin` text,
	`destination` text,
	`service_code` text,
	`lead_hours` integer NOT NULL,
	`cut_off_codes` text NOT NULL,
	`identity` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `schedule_follows_identity` ON `schedule_follows` (`org_id`,`identity`);--> statement-breakpoint
CREATE INDEX `schedule_follows_org` ON `schedule_follows` (`org_id`,`created_at`);