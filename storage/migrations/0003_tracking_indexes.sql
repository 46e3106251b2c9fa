DROP INDEX `tracked_org_updated`;--> statement-breakpoint
CREATE INDEX `tracked_org_identifier` ON `tracked` (`org_id`,`identifier`);--> statement-breakpoint
CREATE INDEX `tracked_org_container` ON `tracked` (`org_id`,`container_number`);--> statement-breakpoint
CREATE INDEX `tracked_lane` ON `tracked` (`carrier_code`,`origin_unlocode`,`destination_unlocode`);--> statement-breakpoint
CREATE INDEX `tracked_org_updated` ON `tracked` (`org_id`,`archived_at`,`updated_at`,`id`);