CREATE TABLE "trade_in_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trade_in_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"actor_user_id" uuid,
	"amount_cents" integer,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_in_events_kind_valid" CHECK ("trade_in_events"."kind" in ('quoted', 'shipped', 'cancelled', 'received', 'inspected', 'accepted', 'credited', 'returned', 'expired')),
	CONSTRAINT "trade_in_events_actor_valid" CHECK ("trade_in_events"."actor" in ('customer', 'admin', 'system'))
);
--> statement-breakpoint
CREATE TABLE "trade_in_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trade_in_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"product_id" uuid NOT NULL,
	"variant_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sku" text NOT NULL,
	"qty" integer NOT NULL,
	"offered_cents" integer NOT NULL,
	"outcome" text,
	"inspected_cents" integer,
	"reason" text,
	CONSTRAINT "trade_in_items_qty_positive" CHECK ("trade_in_items"."qty" between 1 and 50),
	CONSTRAINT "trade_in_items_offered_non_negative" CHECK ("trade_in_items"."offered_cents" >= 0),
	CONSTRAINT "trade_in_items_outcome_valid" CHECK ("trade_in_items"."outcome" is null or "trade_in_items"."outcome" in ('accepted', 'lowered', 'rejected')),
	CONSTRAINT "trade_in_items_outcome_shape" CHECK (("trade_in_items"."outcome" is null and "trade_in_items"."inspected_cents" is null)
        or ("trade_in_items"."outcome" = 'accepted' and "trade_in_items"."inspected_cents" = "trade_in_items"."offered_cents")
        or ("trade_in_items"."outcome" = 'lowered' and "trade_in_items"."inspected_cents" >= 0 and "trade_in_items"."inspected_cents" < "trade_in_items"."offered_cents")
        or ("trade_in_items"."outcome" = 'rejected' and "trade_in_items"."inspected_cents" = 0))
);
--> statement-breakpoint
CREATE TABLE "trade_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"customer_name" text NOT NULL,
	"customer_email" text NOT NULL,
	"status" text NOT NULL,
	"quoted_cents" integer NOT NULL,
	"inspected_cents" integer,
	"credited_cents" integer DEFAULT 0 NOT NULL,
	"tracking_number" text,
	"expires_at" timestamp with time zone NOT NULL,
	"link_base" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_ins_status_valid" CHECK ("trade_ins"."status" in ('quoted', 'shipped', 'cancelled', 'received', 'inspected', 'accepted', 'returned', 'expired')),
	CONSTRAINT "trade_ins_quoted_non_negative" CHECK ("trade_ins"."quoted_cents" >= 0),
	CONSTRAINT "trade_ins_inspected_non_negative" CHECK ("trade_ins"."inspected_cents" is null or "trade_ins"."inspected_cents" >= 0),
	CONSTRAINT "trade_ins_credited_non_negative" CHECK ("trade_ins"."credited_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "gift_card_ledger" DROP CONSTRAINT "gift_card_ledger_kind_valid";--> statement-breakpoint
ALTER TABLE "gift_card_ledger" DROP CONSTRAINT "gift_card_ledger_kind_shape";--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "trade_in_credit_cents" integer;--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD COLUMN "trade_in_id" uuid;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "store_credit_user_id" uuid;--> statement-breakpoint
ALTER TABLE "trade_in_events" ADD CONSTRAINT "trade_in_events_trade_in_id_trade_ins_id_fk" FOREIGN KEY ("trade_in_id") REFERENCES "public"."trade_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_in_events" ADD CONSTRAINT "trade_in_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_in_items" ADD CONSTRAINT "trade_in_items_trade_in_id_trade_ins_id_fk" FOREIGN KEY ("trade_in_id") REFERENCES "public"."trade_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_in_items" ADD CONSTRAINT "trade_in_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_in_items" ADD CONSTRAINT "trade_in_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_ins" ADD CONSTRAINT "trade_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_in_events_trade_in_idx" ON "trade_in_events" USING btree ("trade_in_id","at");--> statement-breakpoint
CREATE INDEX "trade_in_items_trade_in_idx" ON "trade_in_items" USING btree ("trade_in_id","position");--> statement-breakpoint
CREATE INDEX "trade_in_items_variant_idx" ON "trade_in_items" USING btree ("variant_id");--> statement-breakpoint
CREATE INDEX "trade_ins_user_idx" ON "trade_ins" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "trade_ins_status_idx" ON "trade_ins" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "trade_ins_quoted_expiry_idx" ON "trade_ins" USING btree ("expires_at") WHERE "trade_ins"."status" = 'quoted';--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_trade_in_id_trade_ins_id_fk" FOREIGN KEY ("trade_in_id") REFERENCES "public"."trade_ins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_store_credit_user_id_users_id_fk" FOREIGN KEY ("store_credit_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_tradein_unique" ON "gift_card_ledger" USING btree ("trade_in_id") WHERE "gift_card_ledger"."kind" = 'tradein_credit';--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_store_credit_user_unique" ON "gift_cards" USING btree ("store_credit_user_id") WHERE "gift_cards"."store_credit_user_id" is not null and "gift_cards"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_trade_in_credit_non_negative" CHECK ("product_variants"."trade_in_credit_cents" is null or "product_variants"."trade_in_credit_cents" >= 0);--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_kind_valid" CHECK ("gift_card_ledger"."kind" in ('issue', 'top_up', 'order_debit', 'order_refund', 'tradein_credit'));--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_kind_shape" CHECK (("gift_card_ledger"."kind" in ('issue', 'top_up') and "gift_card_ledger"."order_id" is null and "gift_card_ledger"."refund_id" is null and "gift_card_ledger"."trade_in_id" is null)
        or ("gift_card_ledger"."kind" = 'order_debit' and "gift_card_ledger"."order_id" is not null and "gift_card_ledger"."refund_id" is null and "gift_card_ledger"."trade_in_id" is null)
        or ("gift_card_ledger"."kind" = 'order_refund' and "gift_card_ledger"."order_id" is not null and "gift_card_ledger"."trade_in_id" is null)
        or ("gift_card_ledger"."kind" = 'tradein_credit' and "gift_card_ledger"."trade_in_id" is not null and "gift_card_ledger"."order_id" is null and "gift_card_ledger"."refund_id" is null));