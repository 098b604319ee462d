-- Issue 28: a review counts only while its author has an order of the product that counts (paid,
-- delivered or partially refunded). `hidden` (not shown to the public) becomes the database's own
-- sum of the admin's moderation, kept as it was in `hidden_by_admin`, and of `verified_buyer`. Every
-- review is kept. A review whose author has no paid order of the product any more (cancelled or
-- refunded in full before this release) is marked `verified_buyer = false`, so it is hidden, and its
-- product's rating and count are recomputed from the visible reviews. A former customer's review
-- (user_id NULL: the account was deleted) keeps its standing (docs/reviews.md).
ALTER TABLE "product_reviews" ADD COLUMN "hidden_by_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "verified_buyer" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "product_reviews" SET "hidden_by_admin" = "hidden";--> statement-breakpoint
UPDATE "product_reviews" r SET "verified_buyer" = false
WHERE r."user_id" IS NOT NULL AND NOT EXISTS (
	SELECT 1 FROM "orders" o JOIN "order_items" i ON i."order_id" = o."id"
	WHERE o."user_id" = r."user_id" AND i."product_id" = r."product_id" AND o."status" = 'paid');--> statement-breakpoint
ALTER TABLE "product_reviews" DROP COLUMN "hidden";--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "hidden" boolean GENERATED ALWAYS AS ("hidden_by_admin" or not "verified_buyer") STORED NOT NULL;--> statement-breakpoint
UPDATE "products" SET
	"rating_tenths" = coalesce((SELECT round(sum(r."rating") * 10::numeric / count(*)) FROM "product_reviews" r WHERE r."product_id" = "products"."id" AND NOT r."hidden"), 0),
	"review_count" = (SELECT count(*) FROM "product_reviews" r WHERE r."product_id" = "products"."id" AND NOT r."hidden")
WHERE "products"."id" IN (SELECT "product_id" FROM "product_reviews" WHERE NOT "verified_buyer");
