ALTER TABLE "products" ADD COLUMN "search_facts" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cheapest_cents" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cheapest_in_stock_cents" integer;--> statement-breakpoint
-- Issue 33: a product's search facts (schema/products.ts) from its live variants: over all of them
-- (key '') and per value of its Condition option, the cheapest price and the cheapest in stock.
CREATE OR REPLACE FUNCTION pv_product_facts(pid uuid) RETURNS jsonb
  LANGUAGE sql STABLE
  AS $$
    SELECT coalesce(jsonb_object_agg(f.k, jsonb_build_array(f.cheapest, f.stocked)), '{}'::jsonb)
    FROM (
      SELECT '' AS k, min(v.price_cents) AS cheapest, min(v.price_cents) FILTER (WHERE v.stock > 0) AS stocked
        FROM product_variants v WHERE v.product_id = pid AND v.archived_at IS NULL
      UNION ALL
      SELECT v.options ->> 'Condition', min(v.price_cents), min(v.price_cents) FILTER (WHERE v.stock > 0)
        FROM product_variants v
        WHERE v.product_id = pid AND v.archived_at IS NULL AND v.options ? 'Condition'
        GROUP BY 1
    ) f
    WHERE f.cheapest IS NOT NULL
  $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION pv_refresh_product_facts() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    DECLARE
      pid uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.product_id ELSE NEW.product_id END;
      facts jsonb := pv_product_facts(pid);
    BEGIN
      UPDATE products
        SET search_facts = facts,
          cheapest_cents = (facts -> '' ->> 0)::int,
          cheapest_in_stock_cents = (facts -> '' ->> 1)::int
        WHERE id = pid AND search_facts IS DISTINCT FROM facts;
      RETURN NULL;
    END
  $$;--> statement-breakpoint
-- Deferred to the commit: the product's row is locked after every variant the transaction locks (an
-- order's lines, a restock), never before, so it adds no lock-order cycle; and only when what the facts
-- hold can have changed (a stock crossing zero, a price, an archive, the options).
CREATE CONSTRAINT TRIGGER product_variants_facts_insert AFTER INSERT ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pv_refresh_product_facts();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_facts_update AFTER UPDATE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.stock > 0) IS DISTINCT FROM (NEW.stock > 0)
    OR OLD.price_cents IS DISTINCT FROM NEW.price_cents
    OR OLD.archived_at IS DISTINCT FROM NEW.archived_at
    OR OLD.options IS DISTINCT FROM NEW.options
    OR OLD.product_id IS DISTINCT FROM NEW.product_id)
  EXECUTE FUNCTION pv_refresh_product_facts();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_facts_delete AFTER DELETE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pv_refresh_product_facts();--> statement-breakpoint
-- Room on each page for a changed row's new version (a HOT update: no index entries made again).
ALTER TABLE products SET (fillfactor = 90);--> statement-breakpoint
UPDATE products SET search_facts = pv_product_facts(id);--> statement-breakpoint
UPDATE products
  SET cheapest_cents = (search_facts -> '' ->> 0)::int,
    cheapest_in_stock_cents = (search_facts -> '' ->> 1)::int;
