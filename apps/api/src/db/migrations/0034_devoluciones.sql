-- Returns of sales (issue 15, decision 0009): a numbered "Devolución" per business, its lines,
-- the money going back by a medio (or to the customer's account) and, for a void, the turno the
-- money left from.
CREATE TABLE "devoluciones" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "numero" integer NOT NULL,
  "venta_id" uuid NOT NULL,
  "fecha" timestamp with time zone NOT NULL,
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "devoluciones_monto" CHECK ("monto" >= 0),
  "medio_pago_id" uuid NOT NULL,
  "metodo_pago" text NOT NULL,
  "tipo" text NOT NULL,
  "cliente_id" uuid,
  "turno_id" uuid,
  "motivo" text,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  CONSTRAINT "devoluciones_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "devoluciones_business_numero_key" UNIQUE ("business_id", "numero"),
  CONSTRAINT "devoluciones_venta_fk" FOREIGN KEY ("business_id", "venta_id") REFERENCES "sales" ("business_id", "id"),
  CONSTRAINT "devoluciones_medio_fk" FOREIGN KEY ("business_id", "medio_pago_id") REFERENCES "payment_methods" ("business_id", "id"),
  CONSTRAINT "devoluciones_cliente_fk" FOREIGN KEY ("business_id", "cliente_id") REFERENCES "customers" ("business_id", "id"),
  CONSTRAINT "devoluciones_turno_fk" FOREIGN KEY ("business_id", "turno_id") REFERENCES "turnos" ("business_id", "id"),
  CONSTRAINT "devoluciones_cuenta" CHECK ("tipo" <> 'cuenta_corriente' OR "cliente_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "devoluciones_venta_idx" ON "devoluciones" ("business_id", "venta_id");
--> statement-breakpoint
CREATE INDEX "devoluciones_fecha_idx" ON "devoluciones" ("business_id", "fecha");
--> statement-breakpoint
CREATE INDEX "devoluciones_turno_idx" ON "devoluciones" ("business_id", "turno_id") WHERE "turno_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "devoluciones_cuenta_idx" ON "devoluciones" ("business_id", "cliente_id") WHERE "tipo" = 'cuenta_corriente';
--> statement-breakpoint
-- The lines returned: quantity, what goes back for them (monto), and their share of the line's
-- subtotal and cost (the reports by product subtract them).
CREATE TABLE "devolucion_items" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "devolucion_id" uuid NOT NULL,
  "venta_item_id" uuid NOT NULL REFERENCES "sale_items"("id"),
  "cantidad" numeric(14, 3) NOT NULL CONSTRAINT "devolucion_items_cantidad" CHECK ("cantidad" > 0),
  "monto" numeric(14, 2) NOT NULL,
  "subtotal" numeric(14, 2) NOT NULL,
  "costo" numeric(14, 2) NOT NULL,
  CONSTRAINT "devolucion_items_pkey" PRIMARY KEY ("devolucion_id", "venta_item_id"),
  CONSTRAINT "devolucion_items_devolucion_fk" FOREIGN KEY ("business_id", "devolucion_id") REFERENCES "devoluciones" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "devolucion_items_montos" CHECK ("monto" >= 0 AND "subtotal" >= 0 AND "costo" >= 0)
);
--> statement-breakpoint
CREATE INDEX "devolucion_items_item_idx" ON "devolucion_items" ("venta_item_id");
--> statement-breakpoint
ALTER TABLE "finance_movements" ADD COLUMN "devolucion_id" uuid;
--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_devolucion_fk" FOREIGN KEY ("business_id", "devolucion_id") REFERENCES "devoluciones" ("business_id", "id");
--> statement-breakpoint
-- The turno whose drawer the money of a void left from (null: none was open). A sale voided in
-- its own turno leaves it; voided in another, it stays in its own and the refund is the other's.
ALTER TABLE "sales" ADD COLUMN "anulada_turno_id" uuid;
--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_anulada_turno_fk" FOREIGN KEY ("business_id", "anulada_turno_id") REFERENCES "turnos" ("business_id", "id");
--> statement-breakpoint
CREATE INDEX "sales_anulada_turno_idx" ON "sales" ("business_id", "anulada_turno_id") WHERE "anulada_turno_id" IS NOT NULL;
--> statement-breakpoint
-- Voids of before left their own turno.
UPDATE "sales" SET "anulada_turno_id" = "turno_id" WHERE "estado" = 'anulada' AND "turno_id" IS NOT NULL;
