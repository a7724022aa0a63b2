-- Customers' accounts (issue 14, decision 0008): sales on account are receivables of the customer,
-- cobros pay them (and are the cash).
INSERT INTO "payment_methods" ("business_id", "nombre", "tipo", "orden")
SELECT b.id, 'Cuenta corriente', 'cuenta_corriente', 8 FROM "businesses" b
 WHERE NOT EXISTS (SELECT 1 FROM "payment_methods" pm WHERE pm.business_id = b.id AND pm.tipo = 'cuenta_corriente');
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "limite_credito" numeric(14, 2)
  CONSTRAINT "customers_limite_credito" CHECK ("limite_credito" >= 0);
--> statement-breakpoint
CREATE TABLE "cobros" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "cliente_id" uuid NOT NULL,
  "numero" integer NOT NULL,
  "fecha" timestamp with time zone NOT NULL,
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "cobros_monto" CHECK ("monto" > 0),
  "medio_pago_id" uuid NOT NULL,
  "metodo_pago" text NOT NULL,
  "turno_id" uuid,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "observaciones" text,
  CONSTRAINT "cobros_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "cobros_business_numero_key" UNIQUE ("business_id", "numero"),
  CONSTRAINT "cobros_cliente_fk" FOREIGN KEY ("business_id", "cliente_id") REFERENCES "customers" ("business_id", "id"),
  CONSTRAINT "cobros_medio_fk" FOREIGN KEY ("business_id", "medio_pago_id") REFERENCES "payment_methods" ("business_id", "id"),
  CONSTRAINT "cobros_turno_fk" FOREIGN KEY ("business_id", "turno_id") REFERENCES "turnos" ("business_id", "id")
);
--> statement-breakpoint
CREATE INDEX "cobros_cliente_idx" ON "cobros" ("business_id", "cliente_id", "fecha");
--> statement-breakpoint
CREATE INDEX "cobros_turno_idx" ON "cobros" ("business_id", "turno_id") WHERE "turno_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "finance_movements" ADD COLUMN "cobro_id" uuid;
--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_cobro_fk" FOREIGN KEY ("business_id", "cobro_id") REFERENCES "cobros" ("business_id", "id");
--> statement-breakpoint
CREATE INDEX "sale_payments_cuenta_idx" ON "sale_payments" ("business_id", "venta_id") WHERE "tipo" = 'cuenta_corriente';
