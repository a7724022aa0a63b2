-- A caja's label printer (issue 35, docs/decisions/0054-printing.md): {lenguaje: 'zpl', host,
-- puerto, dpi, ancho_mm, alto_mm}, a Zebra-compatible printer the server reaches on the shop's
-- network; null: none, labels are A4 PDF sheets.
ALTER TABLE "cajas" ADD COLUMN "impresora_etiquetas" jsonb;--> statement-breakpoint
ALTER TABLE "cajas" ADD CONSTRAINT "cajas_impresora_etiquetas_lenguaje" CHECK ("impresora_etiquetas" IS NULL OR "impresora_etiquetas"->>'lenguaje' = 'zpl');
