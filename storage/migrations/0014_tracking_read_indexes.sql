DROP INDEX `tracked_lane`;--> statement-breakpoint
CREATE INDEX `tracked_lane` ON `tracked` (`carrier_code`,`origin_unlocode`,`destination_unlocode`,`stage`,`container_number`,`delay_bars`);--> statement-breakpoint
CREATE INDEX `corrections_tracked` ON `corrections` (`tracked_id`);