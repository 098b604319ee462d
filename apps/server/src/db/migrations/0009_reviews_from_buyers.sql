-- Issue 14: reviews belong to a customer who bought the product. The anonymous reviews seeded before
-- (no author account, no order behind them) cannot be verified: they are deleted, and every product's
-- rating and review count are recomputed from what remains (nothing), so no number is left that no
-- review supports (docs/reviews.md).
DELETE FROM "product_reviews";--> statement-breakpoint
ALTER TABLE "product_reviews" DROP CONSTRAINT "product_reviews_rating_range";--> statement-breakpoint
DROP INDEX "product_reviews_product_idx";--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "rating" smallint NOT NULL;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "title" text NOT NULL;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_reviews_product_user_unique" ON "product_reviews" USING btree ("product_id","user_id");--> statement-breakpoint
CREATE INDEX "product_reviews_product_created_idx" ON "product_reviews" USING btree ("product_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "product_reviews_user_idx" ON "product_reviews" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "product_reviews" DROP COLUMN "author_name";--> statement-breakpoint
ALTER TABLE "product_reviews" DROP COLUMN "rating_tenths";--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_title_length" CHECK (char_length("product_reviews"."title") between 1 and 120);--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_comment_length" CHECK (char_length("product_reviews"."comment") between 1 and 4000);--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_rating_range" CHECK ("product_reviews"."rating" between 1 and 5);--> statement-breakpoint
UPDATE "products" SET
	"rating_tenths" = coalesce((SELECT round(sum(r."rating") * 10::numeric / count(*)) FROM "product_reviews" r WHERE r."product_id" = "products"."id" AND NOT r."hidden"), 0),
	"review_count" = (SELECT count(*) FROM "product_reviews" r WHERE r."product_id" = "products"."id" AND NOT r."hidden");
