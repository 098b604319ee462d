CREATE TABLE "product_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"sku" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"price_cents" integer NOT NULL,
	"stock" integer NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_price_non_negative" CHECK ("product_variants"."price_cents" >= 0),
	CONSTRAINT "product_variants_stock_non_negative" CHECK ("product_variants"."stock" >= 0),
	CONSTRAINT "product_variants_position_range" CHECK ("product_variants"."position" between 0 and 99),
	CONSTRAINT "product_variants_sku_length" CHECK (char_length("product_variants"."sku") between 1 and 64)
);
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_price_non_negative";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_stock_non_negative";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_lower_unique" ON "product_variants" USING btree (lower("sku"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_live_position_unique" ON "product_variants" USING btree ("product_id","position") WHERE "product_variants"."archived_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_live_options_unique" ON "product_variants" USING btree ("product_id","options") WHERE "product_variants"."archived_at" is null;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Issue 31 (decision 007): every product becomes one default variant holding its price and stock,
-- with a SKU made of its id (PV- and the first 12 hex digits; a rare tie gets -2, -3, ...).
INSERT INTO "product_variants" ("product_id", "position", "sku", "options", "price_cents", "stock", "created_at", "updated_at")
SELECT "id", 0,
  'PV-' || upper(substr(replace("id"::text, '-', ''), 1, 12))
    || CASE WHEN "tie" > 1 THEN '-' || "tie" ELSE '' END,
  '{}'::jsonb, "price_cents", "stock", "created_at", "updated_at"
FROM (
  SELECT p.*, row_number() OVER (PARTITION BY substr(replace(p."id"::text, '-', ''), 1, 12) ORDER BY p."id") AS "tie"
  FROM "products" p
) AS "numbered";--> statement-breakpoint
-- What every past line bought: its product's one variant.
UPDATE "order_items" SET "variant_id" = v."id"
FROM "product_variants" v
WHERE v."product_id" = "order_items"."product_id" AND v."position" = 0;
