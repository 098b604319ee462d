-- Issue 33: search that forgives accents, case and typos. unaccent ships with PostgreSQL (contrib) and
-- with PGlite, and is a trusted extension. unaccent() itself is only STABLE (its dictionary could be
-- changed), so generated columns and indexes read it through this IMMUTABLE wrapper naming the
-- dictionary, as the extension's documentation suggests.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION pv_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "platform" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (pv_fold(name || coalesce(' ' || platform, ''))) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_description" text GENERATED ALWAYS AS (pv_fold(description)) STORED;--> statement-breakpoint
CREATE INDEX "products_search_text_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_description_trgm_idx" ON "products" USING gin ("search_description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_platform_idx" ON "products" USING btree (lower("platform"));
