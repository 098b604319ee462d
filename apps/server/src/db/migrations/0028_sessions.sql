CREATE TABLE "user_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text,
	"device" text NOT NULL,
	"ip" text,
	CONSTRAINT "user_sessions_user_agent_length" CHECK (char_length("user_sessions"."user_agent") <= 512),
	CONSTRAINT "user_sessions_device_length" CHECK (char_length("user_sessions"."device") <= 100)
);
--> statement-breakpoint
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_sessions_user_created_idx" ON "user_sessions" USING btree ("user_id","created_at");