-- The ARCA punto de venta a caja invoices from (issue 16: one per caja if the shop wants); null: the
-- default of the fiscal setup.
ALTER TABLE cajas ADD COLUMN punto_venta integer;--> statement-breakpoint
ALTER TABLE cajas ADD CONSTRAINT cajas_punto_venta CHECK (punto_venta BETWEEN 1 AND 99998);
