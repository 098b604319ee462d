-- pg_trgm ships with PostgreSQL (contrib) and with PGlite; it is a trusted extension (PostgreSQL 13+): the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "products_live_category_name_idx" ON "products" USING btree ("category","name","id") WHERE "products"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);