-- Issue 18 (selling offline): the POS catalogue is refreshed by "what changed since a cursor".
-- Each catalogue row carries the id of the transaction that last wrote it (xid8, set by a
-- trigger), and deleted rows leave a tombstone with the deleting transaction's id. The cursor is
-- the xmin of the snapshot of the previous read: every transaction below it had ended, so rows
-- written by later (or then still running) transactions are exactly those with cambio_xid >= cursor.
-- See docs/decisions/0014-offline-pos.md.
CREATE FUNCTION pos_marcar_cambio() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.cambio_xid := pg_current_xact_id();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TABLE "pos_eliminados" (
	"business_id" uuid NOT NULL,
	"entidad" text NOT NULL,
	"id" uuid NOT NULL,
	"cambio_xid" xid8 NOT NULL,
	"eliminado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pos_eliminados_pkey" PRIMARY KEY ("business_id", "entidad", "id"),
	CONSTRAINT "pos_eliminados_entidad" CHECK ("entidad" IN ('producto', 'servicio', 'cliente'))
);--> statement-breakpoint
CREATE INDEX "pos_eliminados_cambio_idx" ON "pos_eliminados" USING btree ("business_id", "cambio_xid");--> statement-breakpoint
CREATE FUNCTION pos_marcar_eliminado() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Deleting a business cascades to its rows: no tombstone is kept for them (hence no foreign
  -- key on pos_eliminados, whose business is gone by the end of that statement).
  IF NOT EXISTS (SELECT 1 FROM businesses WHERE id = OLD.business_id) THEN RETURN OLD; END IF;
  INSERT INTO pos_eliminados (business_id, entidad, id, cambio_xid)
  VALUES (OLD.business_id, TG_ARGV[0], OLD.id, pg_current_xact_id())
  ON CONFLICT (business_id, entidad, id) DO UPDATE SET cambio_xid = excluded.cambio_xid, eliminado_en = now();
  RETURN OLD;
END $$;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cambio_xid" xid8 DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "cambio_xid" xid8 DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "cambio_xid" xid8 DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX "products_cambio_idx" ON "products" USING btree ("business_id", "cambio_xid");--> statement-breakpoint
CREATE INDEX "services_cambio_idx" ON "services" USING btree ("business_id", "cambio_xid");--> statement-breakpoint
CREATE INDEX "customers_cambio_idx" ON "customers" USING btree ("business_id", "cambio_xid");--> statement-breakpoint
CREATE TRIGGER "products_cambio" BEFORE INSERT OR UPDATE ON "products" FOR EACH ROW EXECUTE FUNCTION pos_marcar_cambio();--> statement-breakpoint
CREATE TRIGGER "services_cambio" BEFORE INSERT OR UPDATE ON "services" FOR EACH ROW EXECUTE FUNCTION pos_marcar_cambio();--> statement-breakpoint
CREATE TRIGGER "customers_cambio" BEFORE INSERT OR UPDATE ON "customers" FOR EACH ROW EXECUTE FUNCTION pos_marcar_cambio();--> statement-breakpoint
CREATE TRIGGER "products_eliminado" AFTER DELETE ON "products" FOR EACH ROW EXECUTE FUNCTION pos_marcar_eliminado('producto');--> statement-breakpoint
CREATE TRIGGER "services_eliminado" AFTER DELETE ON "services" FOR EACH ROW EXECUTE FUNCTION pos_marcar_eliminado('servicio');--> statement-breakpoint
CREATE TRIGGER "customers_eliminado" AFTER DELETE ON "customers" FOR EACH ROW EXECUTE FUNCTION pos_marcar_eliminado('cliente');--> statement-breakpoint
-- Caja ingresos and retiros taken offline are replayed with the device's key: one movement per key.
ALTER TABLE "turno_movimientos" ADD COLUMN "clave" text;--> statement-breakpoint
CREATE UNIQUE INDEX "turno_movimientos_clave_key" ON "turno_movimientos" USING btree ("business_id", "clave") WHERE "clave" IS NOT NULL;
