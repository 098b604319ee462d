CREATE INDEX "orders_created_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_paid_created_idx" ON "orders" USING btree ("created_at") WHERE "orders"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_to_deliver_idx" ON "orders" USING btree ("created_at") WHERE "orders"."status" = 'paid' and not "orders"."is_delivered";