CREATE TABLE "stock_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"variant_id" uuid NOT NULL,
	"user_id" uuid,
	"email" text,
	"status" text NOT NULL,
	"link_base" text NOT NULL,
	"confirm_token_hash" text,
	"confirm_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"mail_id" uuid,
	"unsubscribe_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_alerts_status_valid" CHECK ("stock_alerts"."status" in ('pending', 'waiting', 'notified', 'cancelled')),
	CONSTRAINT "stock_alerts_one_recipient" CHECK (("stock_alerts"."user_id" is null) <> ("stock_alerts"."email" is null)),
	CONSTRAINT "stock_alerts_email_lowercase" CHECK ("stock_alerts"."email" = lower("stock_alerts"."email")),
	CONSTRAINT "stock_alerts_pending_is_visitor" CHECK ("stock_alerts"."status" <> 'pending' or "stock_alerts"."user_id" is null)
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_mail_id_mail_outbox_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mail_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_open_user_unique" ON "stock_alerts" USING btree ("variant_id","user_id") WHERE "stock_alerts"."user_id" is not null and "stock_alerts"."status" in ('pending', 'waiting');--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_open_email_unique" ON "stock_alerts" USING btree ("variant_id","email") WHERE "stock_alerts"."email" is not null and "stock_alerts"."status" in ('pending', 'waiting');--> statement-breakpoint
CREATE INDEX "stock_alerts_variant_status_idx" ON "stock_alerts" USING btree ("variant_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_confirm_token_unique" ON "stock_alerts" USING btree ("confirm_token_hash") WHERE "stock_alerts"."confirm_token_hash" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_unsubscribe_token_unique" ON "stock_alerts" USING btree ("unsubscribe_token_hash") WHERE "stock_alerts"."unsubscribe_token_hash" is not null;--> statement-breakpoint
CREATE INDEX "stock_alerts_user_idx" ON "stock_alerts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "stock_alerts_email_idx" ON "stock_alerts" USING btree ("email") WHERE "stock_alerts"."email" is not null;--> statement-breakpoint
CREATE INDEX "stock_alerts_mail_idx" ON "stock_alerts" USING btree ("mail_id") WHERE "stock_alerts"."mail_id" is not null;--> statement-breakpoint
-- Issue 34: back-in-stock alerts, written by PostgreSQL itself so that no path that restocks a
-- variant (an admin's edit, a CSV import, a refund, an order expired or cancelled, a replaced checkout)
-- can forget them (docs/back-in-stock.md). What a mail needs of text, escaped, as the server's
-- TypeScript does it (lib/html.ts escapeHtml, mail.service.ts oneLine): alerts.mail.test.ts compares.
CREATE OR REPLACE FUNCTION pv_escape_html(t text) RETURNS text
  LANGUAGE sql IMMUTABLE
  AS $$
    SELECT replace(replace(replace(replace(replace(coalesce(t, ''),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
  $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION pv_one_line(t text) RETURNS text
  LANGUAGE sql IMMUTABLE
  AS $$
    SELECT btrim(regexp_replace(coalesce(t, ''), '[\r\n\t' || chr(8232) || chr(8233) || ']+', ' ', 'g'))
  $$;--> statement-breakpoint
-- A variant's title from the product's options in order (packages/shared variantTitle): "Loose / PAL".
CREATE OR REPLACE FUNCTION pv_variant_title(product_options jsonb, variant_options jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE
  AS $$
    SELECT coalesce(string_agg(variant_options ->> (o.opt ->> 'name'), ' / ' ORDER BY o.n), '')
    FROM jsonb_array_elements(
        CASE WHEN jsonb_typeof(product_options) = 'array' THEN product_options ELSE '[]'::jsonb END
      ) WITH ORDINALITY AS o(opt, n)
    WHERE jsonb_typeof(variant_options) = 'object'
      AND coalesce(variant_options ->> (o.opt ->> 'name'), '') <> ''
  $$;--> statement-breakpoint
-- The alert mail: its wording lives here and only here (tested in alerts.mail.test.ts). The product
-- is named as order mails name a line (packages/shared nameWithVariant): "Zelda II (Loose / PAL)".
CREATE OR REPLACE FUNCTION pv_stock_alert_mail(
    product_name text, variant_title text, product_url text, unsubscribe_url text,
    OUT subject text, OUT text_body text, OUT html_body text)
  LANGUAGE sql IMMUTABLE
  AS $$
    SELECT
      pv_one_line('Back in stock: ' || w.item),
      format(E'Hello,\n\n'
        'Good news: %1$s is back in stock at Pixel Vault.\n\n'
        'Retro stock is often one of a kind, so it may not stay for long. See it here:\n%2$s\n\n'
        'You asked us to tell you once when it came back: this is that one mail.\n\n'
        'To stop all back-in-stock alerts to this address, open this link:\n%3$s\n\n'
        'Pixel Vault',
        w.item, product_url, unsubscribe_url),
      format(E'<!doctype html>\n<html><body style="font-family:Arial,sans-serif;color:#222">\n'
        '<h1>Back in stock</h1>\n<p>Hello,</p>\n'
        '<p>Good news: <strong>%1$s</strong> is back in stock at Pixel Vault.</p>\n'
        '<p>Retro stock is often one of a kind, so it may not stay for long.</p>\n'
        '<p><a href="%2$s" style="display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px">See it in the shop</a></p>\n'
        '<p>Or copy this link into your browser:<br><a href="%2$s">%2$s</a></p>\n'
        '<p>You asked us to tell you once when it came back: this is that one mail.</p>\n'
        '<p style="color:#555;font-size:13px">To stop all back-in-stock alerts to this address: <a href="%3$s">unsubscribe</a>.</p>\n'
        '<p>Pixel Vault</p>\n</body></html>',
        pv_escape_html(w.item), pv_escape_html(product_url), pv_escape_html(unsubscribe_url))
    FROM (
      SELECT pv_one_line(CASE WHEN coalesce(variant_title, '') = '' THEN product_name
        ELSE product_name || ' (' || variant_title || ')' END) AS item
    ) w
  $$;--> statement-breakpoint
-- Run at the commit of a transaction that took the variant's stock from 0 to above 0 (deferred, so a
-- transaction that gives stock back and takes it again, as a replaced checkout does, mails nobody):
-- every waiting (confirmed, unused) alert of the variant gets one mail in the outbox, one per address,
-- and is used. The variant's row is locked by the update that fired this; subscribes and confirmations
-- share-lock it (alerts.repo.ts lockVariant), so none can slip in between the read and the mails.
CREATE OR REPLACE FUNCTION pv_notify_stock_alerts() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
    DECLARE
      item record;
      r record;
      token text;
      mail uuid;
    BEGIN
      -- The variant as the transaction leaves it: still in stock, still sold.
      SELECT v.id AS variant_id, p.id AS product_id, p.name, p.category,
          pv_variant_title(p.options, v.options) AS title
        INTO item
        FROM product_variants v JOIN products p ON p.id = v.product_id
        WHERE v.id = NEW.id AND v.stock > 0 AND v.archived_at IS NULL AND p.deleted_at IS NULL;
      IF NOT FOUND THEN
        RETURN NULL;
      END IF;
      -- Its waiting alerts locked in id order (an unsubscribe holding one is waited for, then skipped).
      PERFORM 1 FROM stock_alerts a WHERE a.variant_id = NEW.id AND a.status = 'waiting'
        ORDER BY a.id FOR UPDATE;
      -- One mail per address: an account's alert goes to the account's address as it is now, a
      -- visitor's to theirs; an address with both gets one. Issue 36 (verified addresses) will leave
      -- out accounts whose address is not verified here (and keep their alerts waiting).
      FOR r IN
        SELECT lower(coalesce(u.email, a.email)) AS address,
            array_agg(a.id ORDER BY a.id) AS ids,
            (array_agg(a.link_base ORDER BY a.id))[1] AS base
          FROM stock_alerts a LEFT JOIN users u ON u.id = a.user_id
          WHERE a.variant_id = NEW.id AND a.status = 'waiting'
          GROUP BY 1
          ORDER BY 1
      LOOP
        -- 64 hex digits (244 random bits); only its SHA-256 is kept, as for confirmation links.
        token := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
        mail := gen_random_uuid();
        INSERT INTO mail_outbox (id, to_address, subject, text_body, html_body, headers)
          SELECT mail, r.address, m.subject, m.text_body, m.html_body,
              jsonb_build_object(
                'List-Unsubscribe', '<' || r.base || '/api/alerts/unsubscribe/' || token || '>',
                'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click')
            FROM pv_stock_alert_mail(item.name, item.title,
              r.base || '/shop/' || item.category || '/product/' || item.product_id || '?variant=' || item.variant_id,
              r.base || '/alerts/unsubscribe/' || token) m;
        UPDATE stock_alerts
          SET status = 'notified', notified_at = now(), mail_id = mail,
            unsubscribe_token_hash = CASE WHEN id = r.ids[1]
              THEN encode(sha256(convert_to(token, 'UTF8')), 'hex') END
          WHERE id = ANY (r.ids);
      END LOOP;
      RETURN NULL;
    END
  $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_stock_alerts AFTER UPDATE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.stock = 0 AND NEW.stock > 0)
  EXECUTE FUNCTION pv_notify_stock_alerts();
