-- Issue 37, the rest (docs/decisions/0056-presupuestos-y-remitos.md, 0057-cheques.md).
-- A cheque is in the business once: the same bank (as written, case and outer spaces aside),
-- number and librador's CUIT (when there is one) cannot be there twice unless the earlier one
-- is anulado. Two sales or cobros that bring the same cheque at once: one wins, the other gets
-- the unique violation (409).
-- Cheques registered twice before this (nothing refused them) stay as they are, so the upgrade
-- never fails on a shop's data: every later copy is marked `repetido` and left out of the index
-- (the cartera still shows it; the user can anular the wrong one).
ALTER TABLE "cheques" ADD COLUMN "repetido" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "cheques" c SET "repetido" = true
 WHERE c."estado" <> 'anulado'
   AND EXISTS (SELECT 1 FROM "cheques" d
                WHERE d."business_id" = c."business_id" AND d."estado" <> 'anulado'
                  AND lower(btrim(d."banco")) = lower(btrim(c."banco")) AND d."numero" = c."numero"
                  AND coalesce(d."librador_cuit", '') = coalesce(c."librador_cuit", '')
                  AND (d."creado_en", d."id") < (c."creado_en", c."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "cheques_unico" ON "cheques"
  ("business_id", lower(btrim("banco")), "numero", coalesce("librador_cuit", ''))
  WHERE "estado" <> 'anulado' AND NOT "repetido";--> statement-breakpoint

-- What happened to a remito's invoicing (append-only): `facturado` by a sale, and back to
-- `pendiente` when that sale is voided (the goods stay delivered, the remito is to be invoiced
-- again). The remito's row keeps only its current state and sale.
CREATE TABLE "remito_eventos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "remito_id" uuid NOT NULL,
  "estado" text NOT NULL CONSTRAINT "remito_eventos_estado" CHECK ("estado" IN ('facturado', 'pendiente')),
  "venta_id" uuid NOT NULL,
  "motivo" text,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "remito_eventos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "remito_eventos_remito_fk" FOREIGN KEY ("business_id", "remito_id")
    REFERENCES "remitos" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "remito_eventos_venta_fk" FOREIGN KEY ("business_id", "venta_id")
    REFERENCES "sales" ("business_id", "id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE INDEX "remito_eventos_remito_idx" ON "remito_eventos" ("business_id", "remito_id", "creado_en");--> statement-breakpoint
CREATE INDEX "remito_eventos_venta_idx" ON "remito_eventos" ("business_id", "venta_id");--> statement-breakpoint
ALTER TABLE "remito_eventos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "remito_eventos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));
