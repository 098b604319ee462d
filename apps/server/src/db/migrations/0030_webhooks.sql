CREATE TABLE "shop_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"low_stock_threshold" integer DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_settings_one_row" CHECK ("shop_settings"."id" = 1),
	CONSTRAINT "shop_settings_threshold_non_negative" CHECK ("shop_settings"."low_stock_threshold" >= 0)
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"response_status" integer,
	"last_error" text,
	"succeeded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_valid" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret_box" text NOT NULL,
	"secret_hint" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_url_length" CHECK (char_length("webhook_endpoints"."url") <= 2000),
	CONSTRAINT "webhook_endpoints_description_length" CHECK (char_length("webhook_endpoints"."description") <= 200)
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"subject" jsonb NOT NULL,
	"payload" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_unique" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
-- Issue 37: webhook events written by PostgreSQL itself, in the transaction of the change, so that no
-- path that places, pays, cancels, refunds, delivers, restocks or credits (a route, the expiry sweep,
-- a CSV import, a refund's restock) can forget one, and a change that rolls back leaves none
-- (docs/integrations.md). One event row and one delivery row per enabled endpoint that subscribes,
-- in one statement (one snapshot of the endpoints); nothing at all when none does, so the checkout
-- rush pays one look at a tiny table for webhooks nobody wants.
CREATE OR REPLACE FUNCTION pv_webhook_emit(event_type text, subject jsonb) RETURNS void
  LANGUAGE plpgsql
  AS $$
    BEGIN
      -- The common case first, on a cached plan: nobody subscribes (a few microseconds).
      IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.enabled AND event_type = ANY (e.events)) THEN
        RETURN;
      END IF;
      -- One statement, so the event and its deliveries see the same endpoints: an endpoint turned off
      -- in between leaves no event without deliveries.
      WITH targets AS (
        SELECT e.id FROM webhook_endpoints e WHERE e.enabled AND event_type = ANY (e.events)
      ), event AS (
        INSERT INTO webhook_events (type, subject)
          SELECT event_type, subject WHERE EXISTS (SELECT 1 FROM targets)
          RETURNING id
      )
      INSERT INTO webhook_deliveries (event_id, endpoint_id)
        SELECT event.id, targets.id FROM event, targets;
    END
  $$;--> statement-breakpoint
-- LOW_STOCK_THRESHOLD as the running shop says (shop_settings, written at every startup), 3 before any.
CREATE OR REPLACE FUNCTION pv_low_stock_threshold() RETURNS integer
  LANGUAGE sql STABLE
  AS $$
    SELECT coalesce((SELECT low_stock_threshold FROM shop_settings WHERE id = 1), 3)
  $$;--> statement-breakpoint
-- Orders: placed (inserted), paid (unpaid -> paid, or inserted paid), cancelled, delivered.
CREATE OR REPLACE FUNCTION pv_webhook_order_events() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    DECLARE
      subject jsonb := jsonb_build_object('orderId', NEW.id, 'status', NEW.status,
        'isDelivered', NEW.is_delivered, 'totalCents', NEW.total_cents);
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM pv_webhook_emit('order.placed', subject);
        IF NEW.status = 'paid' THEN
          PERFORM pv_webhook_emit('order.paid', subject);
        END IF;
        RETURN NULL;
      END IF;
      IF OLD.status = 'unpaid' AND NEW.status = 'paid' THEN
        PERFORM pv_webhook_emit('order.paid', subject);
      END IF;
      IF OLD.status <> 'cancelled' AND NEW.status = 'cancelled' THEN
        PERFORM pv_webhook_emit('order.cancelled', subject);
      END IF;
      IF NOT OLD.is_delivered AND NEW.is_delivered THEN
        PERFORM pv_webhook_emit('order.delivered', subject);
      END IF;
      RETURN NULL;
    END
  $$;--> statement-breakpoint
CREATE TRIGGER orders_webhook_placed AFTER INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION pv_webhook_order_events();--> statement-breakpoint
CREATE TRIGGER orders_webhook_changed AFTER UPDATE ON orders
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.is_delivered IS DISTINCT FROM NEW.is_delivered)
  EXECUTE FUNCTION pv_webhook_order_events();--> statement-breakpoint
-- A refund is money returned once it is completed: one event per completed refund (in full or in part).
CREATE OR REPLACE FUNCTION pv_webhook_refund_events() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    BEGIN
      PERFORM pv_webhook_emit('order.refunded', jsonb_build_object('orderId', NEW.order_id,
        'refundId', NEW.id, 'amountCents', NEW.amount_cents, 'kind', NEW.kind, 'restock', NEW.restock));
      RETURN NULL;
    END
  $$;--> statement-breakpoint
CREATE TRIGGER order_refunds_webhook_completed_insert AFTER INSERT ON order_refunds
  FOR EACH ROW WHEN (NEW.status = 'completed')
  EXECUTE FUNCTION pv_webhook_refund_events();--> statement-breakpoint
CREATE TRIGGER order_refunds_webhook_completed AFTER UPDATE ON order_refunds
  FOR EACH ROW WHEN (OLD.status <> 'completed' AND NEW.status = 'completed')
  EXECUTE FUNCTION pv_webhook_refund_events();--> statement-breakpoint
-- A trade-in accepted: its credit was issued in the same transaction (tradeins.moves.ts).
CREATE OR REPLACE FUNCTION pv_webhook_tradein_events() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    BEGIN
      PERFORM pv_webhook_emit('tradein.accepted', jsonb_build_object('tradeInId', NEW.id,
        'status', NEW.status, 'creditedCents', NEW.credited_cents));
      RETURN NULL;
    END
  $$;--> statement-breakpoint
CREATE TRIGGER trade_ins_webhook_accepted AFTER UPDATE ON trade_ins
  FOR EACH ROW WHEN (OLD.status <> 'accepted' AND NEW.status = 'accepted')
  EXECUTE FUNCTION pv_webhook_tradein_events();--> statement-breakpoint
-- Stock: run at the commit of a transaction that changed a variant's stock (deferred), comparing the
-- stock before the transaction with the stock it leaves. Deferred events fire in the order they were
-- queued, so the variant's first one carries the stock before the transaction (its OLD); the later ones
-- are skipped, remembered in a transaction-local setting: one of 1024 buckets, so a session keeps at
-- most 1024 of them whatever the catalogue's size, and a 100,000-row import scans short lists. So a
-- replaced checkout, which gives its stock back and takes it again, is no crossing, and 10 -> 4 -> 2
-- in one transaction is one low-stock event.
-- low_stock: from above LOW_STOCK_THRESHOLD to at or below it; back_in_stock: from 0 to above 0 of a
-- sold variant (not archived) of a product not deleted, as the back-in-stock alerts (migration 0025).
-- Cost (measured on PostgreSQL 15): about 8 us per order event and a few per stock change when nobody
-- subscribes; about 0.1 ms per changed variant when someone does.
CREATE OR REPLACE FUNCTION pv_webhook_stock_events() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    DECLARE
      bucket text;
      seen text;
      item record;
      threshold integer;
      subject jsonb;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
          WHERE e.enabled AND e.events && ARRAY['product.low_stock', 'product.back_in_stock']) THEN
        RETURN NULL;
      END IF;
      bucket := 'pv_webhooks.stock_seen_' || (abs(hashtext(NEW.id::text)) % 1024)::text;
      seen := coalesce(current_setting(bucket, true), '');
      IF position(NEW.id::text IN seen) > 0 THEN
        RETURN NULL;
      END IF;
      PERFORM set_config(bucket, seen || NEW.id::text || ',', true);
      SELECT v.id AS variant_id, p.id AS product_id, v.sku, v.stock,
          v.archived_at IS NULL AND p.deleted_at IS NULL AS live,
          CASE WHEN pv_variant_title(p.options, v.options) = '' THEN p.name
            ELSE p.name || ' (' || pv_variant_title(p.options, v.options) || ')' END AS name
        INTO item
        FROM product_variants v JOIN products p ON p.id = v.product_id
        WHERE v.id = NEW.id;
      IF NOT FOUND OR NOT item.live THEN
        RETURN NULL;
      END IF;
      subject := jsonb_build_object('productId', item.product_id, 'variantId', item.variant_id,
        'sku', item.sku, 'name', item.name, 'stock', item.stock, 'previousStock', OLD.stock);
      threshold := pv_low_stock_threshold();
      IF OLD.stock > threshold AND item.stock <= threshold THEN
        PERFORM pv_webhook_emit('product.low_stock', subject || jsonb_build_object('threshold', threshold));
      END IF;
      IF OLD.stock = 0 AND item.stock > 0 THEN
        PERFORM pv_webhook_emit('product.back_in_stock', subject);
      END IF;
      RETURN NULL;
    END
  $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_webhook_stock AFTER UPDATE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.stock IS DISTINCT FROM NEW.stock)
  EXECUTE FUNCTION pv_webhook_stock_events();
