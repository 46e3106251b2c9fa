ALTER TABLE `tracked` ADD `owner_is_lessor` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tracked` ADD `equipment_lessor` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `lessee_name` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `lessor_status` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `lessor_checked_at` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `lessor_contract_number` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `lessor_contract_type` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `redelivery_reference` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `redelivery_date` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `redelivery_location` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `redelivery_yard` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `equipment_manufacturer` text;