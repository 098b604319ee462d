ALTER TABLE "orders" ADD COLUMN "promotion_id" uuid;--> statement-breakpoint
CREATE INDEX "orders_promotion_idx" ON "orders" USING btree ("promotion_id") WHERE "orders"."promotion_id" is not null;--> statement-breakpoint
UPDATE "orders" SET "promotion_id" = "promotions"."id" FROM "promotions" WHERE "orders"."discount_code" = "promotions"."code" AND "orders"."promotion_id" IS NULL;