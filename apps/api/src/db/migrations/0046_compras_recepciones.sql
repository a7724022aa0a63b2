-- Partial reception of purchases (issue #17, decision 0023). Each line knows how much of it has
-- arrived; each reception (who, when, what) is a row with its lines, which also keep the cost and
-- the sale price of the product at that moment so the suggested price can be recomputed exactly.
ALTER TABLE purchase_items ADD COLUMN cantidad_recibida numeric(14, 3) NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE purchase_items i SET cantidad_recibida = i.cantidad
  FROM purchases p WHERE p.business_id = i.business_id AND p.id = i.compra_id AND p.estado = 'recibida';--> statement-breakpoint
ALTER TABLE purchase_items ADD CONSTRAINT purchase_items_recibida_rango CHECK (cantidad_recibida >= 0 AND cantidad_recibida <= cantidad);--> statement-breakpoint
CREATE TABLE purchase_receptions (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  compra_id uuid NOT NULL,
  numero integer NOT NULL,
  creado_por uuid REFERENCES users (id) ON DELETE SET NULL,
  creado_en timestamp with time zone NOT NULL DEFAULT now(),
  revertida_en timestamp with time zone,
  CONSTRAINT purchase_receptions_pkey PRIMARY KEY (id, business_id),
  CONSTRAINT purchase_receptions_business_id_key UNIQUE (business_id, id),
  CONSTRAINT purchase_receptions_numero_key UNIQUE (business_id, compra_id, numero),
  CONSTRAINT purchase_receptions_compra_fk FOREIGN KEY (business_id, compra_id) REFERENCES purchases (business_id, id) ON DELETE CASCADE
);--> statement-breakpoint
CREATE TABLE purchase_reception_items (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  recepcion_id uuid NOT NULL,
  item_id uuid NOT NULL,
  producto_id uuid NOT NULL,
  cantidad numeric(14, 3) NOT NULL,
  costo numeric(14, 2) NOT NULL,
  costo_anterior numeric(14, 2),
  precio_venta numeric(14, 2) NOT NULL,
  CONSTRAINT purchase_reception_items_pkey PRIMARY KEY (recepcion_id, item_id, business_id),
  CONSTRAINT purchase_reception_items_recepcion_fk FOREIGN KEY (business_id, recepcion_id) REFERENCES purchase_receptions (business_id, id) ON DELETE CASCADE,
  CONSTRAINT purchase_reception_items_producto_fk FOREIGN KEY (business_id, producto_id) REFERENCES products (business_id, id),
  CONSTRAINT purchase_reception_items_cantidad_positiva CHECK (cantidad > 0)
);--> statement-breakpoint
CREATE INDEX purchase_receptions_compra_idx ON purchase_receptions (business_id, compra_id, numero);--> statement-breakpoint
CREATE INDEX purchase_reception_items_producto_idx ON purchase_reception_items (business_id, producto_id);
