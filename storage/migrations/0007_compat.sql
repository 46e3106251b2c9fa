CREATE TABLE `compat_usage` (
	`scope` text NOT NULL,
	`period` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`scope`, `period`)
);
