-- Issue 28: the ledger's one key (card, order, kind, refund) NULLS NOT DISTINCT made a second top-up of
-- a card (no order, no refund) a unique violation. Each kind now has the uniqueness it needs: one issue
-- per card, one debit and one release per card and order, one credit per card and refund, and top-ups
-- without limit (each its own row). Every existing row is kept as it is: the old key already allowed
-- at most one of each of these, and every row the shop writes has the shape the new CHECK asks for.
ALTER TABLE "gift_card_ledger" DROP CONSTRAINT "gift_card_ledger_card_order_kind_refund_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_issue_unique" ON "gift_card_ledger" USING btree ("gift_card_id") WHERE "gift_card_ledger"."kind" = 'issue';--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_debit_unique" ON "gift_card_ledger" USING btree ("gift_card_id","order_id") WHERE "gift_card_ledger"."kind" = 'order_debit';--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_release_unique" ON "gift_card_ledger" USING btree ("gift_card_id","order_id") WHERE "gift_card_ledger"."kind" = 'order_refund' and "gift_card_ledger"."refund_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_refund_credit_unique" ON "gift_card_ledger" USING btree ("gift_card_id","refund_id") WHERE "gift_card_ledger"."refund_id" is not null;--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_kind_shape" CHECK (("gift_card_ledger"."kind" in ('issue', 'top_up') and "gift_card_ledger"."order_id" is null and "gift_card_ledger"."refund_id" is null)
        or ("gift_card_ledger"."kind" = 'order_debit' and "gift_card_ledger"."order_id" is not null and "gift_card_ledger"."refund_id" is null)
        or ("gift_card_ledger"."kind" = 'order_refund' and "gift_card_ledger"."order_id" is not null));