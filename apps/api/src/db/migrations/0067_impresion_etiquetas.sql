-- Imprimir y etiquetar (issue 35, docs/decisions/0054-printing.md).
-- A caja's thermal printer: {tipo: 'red', host, puerto, ancho, abrir_cajon} (the server prints on
-- the shop's network) or {tipo: 'navegador', ancho, abrir_cajon} (the counter's browser prints);
-- null: none, tickets go through the browser's print dialog.
ALTER TABLE "cajas" ADD COLUMN "impresora" jsonb;--> statement-breakpoint
ALTER TABLE "cajas" ADD CONSTRAINT "cajas_impresora_tipo" CHECK ("impresora" IS NULL OR "impresora"->>'tipo' IN ('red', 'navegador'));--> statement-breakpoint
-- A product's net content (500 g, 1,5 l, 2 m), so a shelf label shows the price per unit of
-- measure (Res. SIC 4/2025): both set or neither.
ALTER TABLE "products" ADD COLUMN "contenido" numeric(12, 3);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "contenido_unidad" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_contenido" CHECK (("contenido" IS NULL) = ("contenido_unidad" IS NULL) AND coalesce("contenido", 1) > 0 AND coalesce("contenido_unidad", 'g') IN ('g', 'kg', 'ml', 'l', 'cm', 'm', 'm2', 'm3', 'u'));
