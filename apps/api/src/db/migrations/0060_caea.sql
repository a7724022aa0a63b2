-- CAEA contingency (issue 32 point 6, docs/decisions/0047-caea.md). A business names the punto de
-- venta ARCA enabled for CAEA and how long WSFE must stay unreachable before invoices go under the
-- CAEA; `wsfe_caido_desde` is when the current outage began (null while WSFE answers).
ALTER TABLE "facturacion_config" ADD COLUMN "caea_punto_venta" integer;--> statement-breakpoint
ALTER TABLE "facturacion_config" ADD COLUMN "caea_tras_minutos" integer DEFAULT 30 NOT NULL
  CONSTRAINT "facturacion_config_caea_tras_minutos" CHECK ("caea_tras_minutos" BETWEEN 0 AND 1440);--> statement-breakpoint
ALTER TABLE "facturacion_config" ADD COLUMN "wsfe_caido_desde" timestamp with time zone;--> statement-breakpoint
-- A comprobante issued under a CAEA: `cae` holds the CAEA, `cae_vencimiento` its vigencia's end,
-- `caea_informe` the state of its report (FECAEARegInformativo), `caea_generado_en` CbteFchHsGen.
ALTER TABLE "comprobantes" ADD COLUMN "emision" text DEFAULT 'cae' NOT NULL
  CONSTRAINT "comprobantes_emision" CHECK ("emision" IN ('cae', 'caea'));--> statement-breakpoint
ALTER TABLE "comprobantes" ADD COLUMN "caea_informe" text
  CONSTRAINT "comprobantes_caea_informe" CHECK ("caea_informe" IN ('pendiente', 'informado', 'rechazado'));--> statement-breakpoint
ALTER TABLE "comprobantes" ADD COLUMN "caea_generado_en" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comprobantes" ADD CONSTRAINT "comprobantes_caea" CHECK (
  ("emision" = 'caea') = ("caea_informe" IS NOT NULL AND "caea_generado_en" IS NOT NULL));--> statement-breakpoint
CREATE INDEX "comprobantes_caea_por_informar_idx" ON "comprobantes" ("business_id", "punto_venta", "tipo", "numero")
  WHERE "caea_informe" = 'pendiente';--> statement-breakpoint
-- The CAEA of each fortnight (periodo yyyymm, orden 1 = days 1–15, 2 = 16–end), requested ahead.
-- `caea` is null while ARCA refused it (error_*), retried after `intentado_en`. `sin_movimiento`:
-- FECAEASinMovimientoInformar of an unused CAEA on the business's CAEA punto de venta.
CREATE TABLE "caeas" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "periodo" integer NOT NULL,
  "orden" smallint NOT NULL CONSTRAINT "caeas_orden" CHECK ("orden" IN (1, 2)),
  "cuit" text NOT NULL,
  "entorno" text NOT NULL,
  "caea" text,
  "vig_desde" date NOT NULL,
  "vig_hasta" date NOT NULL,
  "tope_informe" date,
  "intentado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "error_codigo" text,
  "error_mensaje" text,
  "sin_movimiento" text CONSTRAINT "caeas_sin_movimiento" CHECK ("sin_movimiento" IN ('informado', 'rechazado')),
  "sin_movimiento_punto_venta" integer,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "caeas_pkey" PRIMARY KEY ("business_id", "periodo", "orden")
);--> statement-breakpoint
ALTER TABLE "caeas" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "caeas"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));
