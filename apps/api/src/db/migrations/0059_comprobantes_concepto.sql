-- WSFEv1's Concepto of each comprobante (docs/decisions/0013-arca.md): 1 productos, 2 servicios,
-- 3 productos y servicios. Services carry the period served and the payment's due date
-- (FchServDesde, FchServHasta, FchVtoPago), kept so a retry and a reprint send and show the same.
-- Existing comprobantes were sent as productos: they keep Concepto 1 without dates.
ALTER TABLE "comprobantes" ADD COLUMN "concepto" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "comprobantes" ADD COLUMN "servicio_desde" date;--> statement-breakpoint
ALTER TABLE "comprobantes" ADD COLUMN "servicio_hasta" date;--> statement-breakpoint
ALTER TABLE "comprobantes" ADD COLUMN "vencimiento_pago" date;--> statement-breakpoint
ALTER TABLE "comprobantes" ADD CONSTRAINT "comprobantes_concepto" CHECK (
  CASE WHEN "concepto" = 1 THEN "servicio_desde" IS NULL AND "servicio_hasta" IS NULL AND "vencimiento_pago" IS NULL
       WHEN "concepto" IN (2, 3) THEN "servicio_desde" IS NOT NULL AND "servicio_hasta" IS NOT NULL
                                   AND "vencimiento_pago" IS NOT NULL AND "servicio_hasta" >= "servicio_desde"
       ELSE false END);
