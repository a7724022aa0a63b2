-- An Idempotency-Key claim survives the death of its process (docs/decisions/0033-database-faults.md):
-- `token` is the claim's own (a request whose claim was taken over cannot complete it), `proceso`
-- names the instance that holds it, and `vence_en` is the lease that instance renews while the
-- request runs. Status 1 = the request's transaction committed; `respuesta` holds its result.
-- Claims of earlier versions (no lease) are left as they are: forgotten after the TTL.
ALTER TABLE "idempotency_keys" ADD COLUMN "token" uuid;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "proceso" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "vence_en" timestamp with time zone;
