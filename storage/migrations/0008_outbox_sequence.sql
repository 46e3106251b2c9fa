PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`product` text NOT NULL,
	`type` text NOT NULL,
	`occurred_at` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	`fanned_out` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_outbox`("seq", "id", "org_id", "product", "type", "occurred_at", "data", "created_at", "fanned_out") SELECT rowid, "id", "org_id", "product", "type", "occurred_at", "data", "created_at", rowid <= coalesce((SELECT "position" FROM `webhook_cursors` WHERE "name" = 'outbox'), 0) FROM `outbox`;--> statement-breakpoint
DROP TABLE `webhook_cursors`;--> statement-breakpoint
DROP TABLE `outbox`;--> statement-breakpoint
ALTER TABLE `__new_outbox` RENAME TO `outbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_id` ON `outbox` (`id`);--> statement-breakpoint
CREATE INDEX `outbox_org_created` ON `outbox` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox` (`seq`) WHERE not "outbox"."fanned_out";