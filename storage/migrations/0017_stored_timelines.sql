CREATE TABLE `timelines` (
	`tracked_id` text PRIMARY KEY NOT NULL,
	`of` text NOT NULL,
	`json` text NOT NULL,
	FOREIGN KEY (`tracked_id`) REFERENCES `tracked`(`id`) ON UPDATE no action ON DELETE cascade
);
