-- Issue 30: Remove beside an applied gift card at checkout. A card may be applied to an unpaid order,
-- removed (its money released back to it) and applied again, so the once-only keys of a debit and of a
-- release name the application too: one debit and one release per (card, order, application). Every
-- existing row gets application 1 (the column's default fills them as it is added), which keeps each
-- existing debit and release unique, as the old keys had them.
DROP INDEX "gift_card_ledger_debit_unique";--> statement-breakpoint
DROP INDEX "gift_card_ledger_release_unique";--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD COLUMN "application" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_debit_unique" ON "gift_card_ledger" USING btree ("gift_card_id","order_id","application") WHERE "gift_card_ledger"."kind" = 'order_debit';--> statement-breakpoint
CREATE UNIQUE INDEX "gift_card_ledger_release_unique" ON "gift_card_ledger" USING btree ("gift_card_id","order_id","application") WHERE "gift_card_ledger"."kind" = 'order_refund' and "gift_card_ledger"."refund_id" is null;--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_application_positive" CHECK ("gift_card_ledger"."application" >= 1);