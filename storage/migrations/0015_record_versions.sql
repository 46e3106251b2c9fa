DROP INDEX `tracked_org_updated`;--> statement-breakpoint
ALTER TABLE `tracked` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `tracked_org_updated` ON `tracked` (`org_id`,`archived_at`,`updated_at`,`id`,`version`);--> statement-breakpoint
ALTER TABLE `sailings` ADD `version` integer DEFAULT 1 NOT NULL;