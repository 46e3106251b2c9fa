DROP INDEX "tracked_lane";--> statement-breakpoint
CREATE INDEX "corrections_tracked" ON "corrections" USING btree ("tracked_id");--> statement-breakpoint
CREATE INDEX "tracked_lane" ON "tracked" USING btree ("carrier_code","origin_unlocode","destination_unlocode","stage","container_number");