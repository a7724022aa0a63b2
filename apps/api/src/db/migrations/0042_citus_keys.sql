-- Ready for Citus (decision 0019): every table that holds a business's data carries business_id
-- in its primary key and in every unique constraint, and its foreign keys to other such tables
-- include it. The key becomes (id, business_id): id first, so lookups by id alone still use the
-- index on servers without skip scans; the composite (business_id, id) unique keys stay, they
-- back the composite foreign keys and the per-business scans.
ALTER TABLE devolucion_items DROP CONSTRAINT devolucion_items_venta_item_id_fkey;--> statement-breakpoint
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT c.relname, k.conname
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
     WHERE k.contype = 'p'
       AND c.relnamespace = 'public'::regnamespace
       AND c.relname <> 'businesses'
       AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'business_id' AND NOT a.attisdropped)
       AND (SELECT array_agg(a.attname::text) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = ANY (k.conkey)) = ARRAY['id']
  LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I, ADD CONSTRAINT %I PRIMARY KEY (id, business_id)', t.relname, t.conname, t.conname);
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE devolucion_items ADD CONSTRAINT devolucion_items_venta_item_fk FOREIGN KEY (business_id, venta_item_id) REFERENCES sale_items (business_id, id);--> statement-breakpoint
ALTER TABLE devolucion_items DROP CONSTRAINT devolucion_items_pkey, ADD CONSTRAINT devolucion_items_pkey PRIMARY KEY (devolucion_id, venta_item_id, business_id);--> statement-breakpoint
ALTER TABLE turno_arqueos DROP CONSTRAINT turno_arqueos_pkey, ADD CONSTRAINT turno_arqueos_pkey PRIMARY KEY (turno_id, medio_pago_id, business_id);--> statement-breakpoint
ALTER TABLE purchase_items DROP CONSTRAINT purchase_items_producto_key, ADD CONSTRAINT purchase_items_producto_key UNIQUE (compra_id, producto_id, business_id);--> statement-breakpoint
DROP INDEX turnos_caja_abierto_idx;--> statement-breakpoint
CREATE UNIQUE INDEX turnos_caja_abierto_idx ON turnos (caja_id, business_id) WHERE estado = 'abierto';--> statement-breakpoint
DROP INDEX invitations_token_key;--> statement-breakpoint
CREATE UNIQUE INDEX invitations_token_key ON invitations (token, business_id);
