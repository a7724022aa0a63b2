-- The supplier's invoice of a purchase (issue #17, decision 0021): one row per purchase that has
-- one. IVA per rate is a JSON list of {alicuota, neto, iva} with amounts as decimal strings.
-- The same supplier's invoice (tipo, punto de venta, número) is recorded once per business.
CREATE TABLE purchase_invoices (
  business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  compra_id uuid NOT NULL,
  proveedor_id uuid,
  tipo text NOT NULL,
  punto_venta integer NOT NULL,
  numero integer NOT NULL,
  fecha date NOT NULL,
  iva jsonb NOT NULL DEFAULT '[]'::jsonb,
  no_gravado numeric(14, 2) NOT NULL DEFAULT 0,
  exento numeric(14, 2) NOT NULL DEFAULT 0,
  percepcion_iva numeric(14, 2) NOT NULL DEFAULT 0,
  percepcion_iibb numeric(14, 2) NOT NULL DEFAULT 0,
  otros_impuestos numeric(14, 2) NOT NULL DEFAULT 0,
  total numeric(14, 2) NOT NULL,
  CONSTRAINT purchase_invoices_pkey PRIMARY KEY (compra_id, business_id),
  CONSTRAINT purchase_invoices_compra_fk FOREIGN KEY (business_id, compra_id) REFERENCES purchases (business_id, id) ON DELETE CASCADE,
  CONSTRAINT purchase_invoices_proveedor_fk FOREIGN KEY (business_id, proveedor_id) REFERENCES suppliers (business_id, id),
  CONSTRAINT purchase_invoices_tipo CHECK (tipo IN ('A', 'B', 'C', 'otro')),
  CONSTRAINT purchase_invoices_numeros CHECK (punto_venta > 0 AND numero > 0),
  CONSTRAINT purchase_invoices_total_no_negativo CHECK (total >= 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX purchase_invoices_numero_key ON purchase_invoices (business_id, proveedor_id, tipo, punto_venta, numero) WHERE proveedor_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX purchase_invoices_fecha_idx ON purchase_invoices (business_id, fecha);
