CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`product` text NOT NULL,
	`hash` text NOT NULL,
	`hint` text NOT NULL,
	`label` text,
	`created_at` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_org` ON `api_keys` (`org_id`);--> statement-breakpoint
CREATE TABLE `entitlements` (
	`org_id` text NOT NULL,
	`product` text NOT NULL,
	`expires_at` text,
	PRIMARY KEY(`org_id`, `product`),
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `orgs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`plan` text DEFAULT 'free' NOT NULL,
	`paid` integer DEFAULT false NOT NULL,
	`shipment_quota` integer,
	`container_slots` integer,
	`payg_spend_cap_usd` real,
	`payg_unit_price_usd` real,
	`created_at` text NOT NULL
);
