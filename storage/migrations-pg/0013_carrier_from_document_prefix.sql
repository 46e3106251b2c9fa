-- A B/L or booking prefix names the line (carrier_code, on the record and its boxes); carrier_hint_code is the lessor's word only, and a hint names no carrier_name.
UPDATE "tracked" SET "carrier_code" = "carrier_hint_code", "carrier_hint_code" = NULL, "version" = "version" + 1 WHERE "carrier_code" IS NULL AND "carrier_hint_code" IS NOT NULL AND ("identifier_type" <> 'container_id' OR "parent_id" IS NOT NULL);--> statement-breakpoint
UPDATE "tracked" SET "carrier_name" = NULL, "version" = "version" + 1 WHERE "carrier_code" IS NULL AND "carrier_name" IS NOT NULL;
