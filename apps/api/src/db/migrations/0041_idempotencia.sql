-- Every create of a business honours Idempotency-Key (docs/decisions/0018-idempotent-creates.md):
-- the first request claims the key (status 0) and its answer is kept here, so a retry with the
-- same key and body gets that answer again instead of a second row. Kept 24 hours.
CREATE TABLE "idempotency_keys" (
	"business_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"clave" text NOT NULL,
	"ruta" text NOT NULL,
	"hash" text NOT NULL,
	"status" integer NOT NULL,
	"respuesta" text,
	"creado_en" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("business_id","user_id","clave")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_creado_idx" ON "idempotency_keys" USING btree ("creado_en");
