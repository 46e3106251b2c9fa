DROP INDEX `tracked_org_updated`;--> statement-breakpoint
DROP INDEX `tracked_org_identifier`;--> statement-breakpoint
DROP INDEX `tracked_org_container`;--> statement-breakpoint
CREATE INDEX `tracked_org_updated` ON `tracked` (`org_id`,`archived_at`,`updated_at`,`id`,`version`,`status`,`tags`);--> statement-breakpoint
CREATE INDEX `tracked_org_identifier` ON `tracked` (`org_id`,`identifier`,`archived_at`,`parent_id`,`id`,`version`);--> statement-breakpoint
CREATE INDEX `tracked_org_container` ON `tracked` (`org_id`,`container_number`,`archived_at`,`parent_id`,`id`,`version`);