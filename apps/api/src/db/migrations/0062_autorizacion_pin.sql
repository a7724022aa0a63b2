-- Autorización con PIN (issue 33, docs/decisions/0049-autorizacion-pin.md): a user's PIN, stored
-- hashed (argon2, as passwords), and who authorized a sale the seller alone could not make (a
-- discount over their maximum, a changed price, a sale over the credit limit).
ALTER TABLE "users" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "autorizado_por" uuid;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_autorizado_por_users_id_fk" FOREIGN KEY ("autorizado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
