ALTER TABLE `tracked` ADD `milestones_of` text;--> statement-breakpoint
ALTER TABLE `tracked` ADD `milestones_json` text;--> statement-breakpoint
UPDATE `tracked` SET (`milestones_of`, `milestones_json`) = (SELECT `of`, `json` FROM `timelines` WHERE `timelines`.`tracked_id` = `tracked`.`id`) WHERE `id` IN (SELECT `tracked_id` FROM `timelines`);--> statement-breakpoint
DROP TABLE `timelines`;
