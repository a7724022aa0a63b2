CREATE TABLE "totales_version" (
	"business_id" uuid NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "totales_version_pkey" PRIMARY KEY("business_id")
);
--> statement-breakpoint
ALTER TABLE "totales_version" ADD CONSTRAINT "totales_version_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- Issue 20, decision 0029: a business's totals carry a version that grows at the commit of every
-- change to them. Every trigger of migration 0049 (sales, lines, returns, movements, renamed
-- products and services, a new calendar) begins with totales_bloquear, so the version grows there,
-- under the business's lock and at the commit. A customer's name, which the report shows beside
-- its totals, makes it grow too.
CREATE OR REPLACE FUNCTION "totales_bloquear"(bid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('totales:' || bid::text, 0));
  INSERT INTO totales_version AS v (business_id, version) VALUES (bid, 1)
  ON CONFLICT (business_id) DO UPDATE SET version = v.version + 1;
END $$;--> statement-breakpoint

-- (A business being deleted takes its customers and its version with it.)
CREATE FUNCTION "totales_cliente_cambiado"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM businesses WHERE id = OLD.business_id) THEN RETURN NULL; END IF;
  PERFORM totales_bloquear(OLD.business_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_totales_nombre" AFTER UPDATE ON "customers" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.nombre IS DISTINCT FROM NEW.nombre OR OLD.apellido IS DISTINCT FROM NEW.apellido)
  EXECUTE FUNCTION totales_cliente_cambiado();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_totales_baja" AFTER DELETE ON "customers" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION totales_cliente_cambiado();
