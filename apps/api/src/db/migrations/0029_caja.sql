-- The counter's money (issue 14): medios de pago, cajas and their turnos, and the payments of
-- each sale. See docs/decisions/0008-caja.md.
CREATE TABLE "payment_methods" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "nombre" text NOT NULL,
  "tipo" text NOT NULL CONSTRAINT "payment_methods_tipo" CHECK ("tipo" IN
    ('efectivo', 'debito', 'credito', 'transferencia', 'qr', 'cuenta_corriente', 'cheque', 'otro')),
  "ajuste_porcentaje" numeric(5, 2) NOT NULL DEFAULT 0
    CONSTRAINT "payment_methods_ajuste" CHECK ("ajuste_porcentaje" > -100 AND "ajuste_porcentaje" <= 100),
  "activo" boolean NOT NULL DEFAULT true,
  "orden" integer NOT NULL DEFAULT 0,
  "creado_en" timestamp with time zone NOT NULL DEFAULT now(),
  "actualizado_en" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "payment_methods_business_id_key" UNIQUE ("business_id", "id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_nombre_idx" ON "payment_methods" ("business_id", lower("nombre"));
--> statement-breakpoint
-- The seven methods of before, for every business that exists.
INSERT INTO "payment_methods" ("business_id", "nombre", "tipo", "orden")
SELECT b.id, m.nombre, m.tipo, m.orden
  FROM "businesses" b,
       (VALUES ('Efectivo', 'efectivo', 1), ('Tarjeta de Débito', 'debito', 2), ('Tarjeta de Crédito', 'credito', 3),
               ('Transferencia', 'transferencia', 4), ('Mercado Pago', 'qr', 5), ('Cheque', 'cheque', 6),
               ('Otro', 'otro', 7)) AS m (nombre, tipo, orden);
--> statement-breakpoint
CREATE TABLE "cajas" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "nombre" text NOT NULL,
  "activa" boolean NOT NULL DEFAULT true,
  "creado_en" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "cajas_business_id_key" UNIQUE ("business_id", "id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cajas_nombre_idx" ON "cajas" ("business_id", lower("nombre"));
--> statement-breakpoint
INSERT INTO "cajas" ("business_id", "nombre") SELECT id, 'Caja 1' FROM "businesses";
--> statement-breakpoint
CREATE TABLE "turnos" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "caja_id" uuid NOT NULL,
  "numero" integer NOT NULL,
  "estado" text NOT NULL DEFAULT 'abierto' CONSTRAINT "turnos_estado" CHECK ("estado" IN ('abierto', 'cerrado')),
  "fondo_inicial" numeric(14, 2) NOT NULL CONSTRAINT "turnos_fondo" CHECK ("fondo_inicial" >= 0),
  "abierto_por" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "abierto_en" timestamp with time zone NOT NULL,
  "cerrado_por" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "cerrado_en" timestamp with time zone,
  "observaciones" text,
  CONSTRAINT "turnos_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "turnos_business_numero_key" UNIQUE ("business_id", "numero"),
  CONSTRAINT "turnos_caja_fk" FOREIGN KEY ("business_id", "caja_id") REFERENCES "cajas" ("business_id", "id"),
  CONSTRAINT "turnos_cerrado" CHECK (("estado" = 'cerrado') = ("cerrado_en" IS NOT NULL))
);
--> statement-breakpoint
-- One open turno per caja.
CREATE UNIQUE INDEX "turnos_caja_abierto_idx" ON "turnos" ("caja_id") WHERE "estado" = 'abierto';
--> statement-breakpoint
CREATE INDEX "turnos_business_abierto_idx" ON "turnos" ("business_id", "abierto_en" DESC);
--> statement-breakpoint
CREATE TABLE "turno_movimientos" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "turno_id" uuid NOT NULL,
  "tipo" text NOT NULL CONSTRAINT "turno_movimientos_tipo" CHECK ("tipo" IN ('ingreso', 'retiro')),
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "turno_movimientos_monto" CHECK ("monto" > 0),
  "motivo" text NOT NULL,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "turno_movimientos_turno_fk" FOREIGN KEY ("business_id", "turno_id") REFERENCES "turnos" ("business_id", "id")
);
--> statement-breakpoint
CREATE INDEX "turno_movimientos_turno_idx" ON "turno_movimientos" ("business_id", "turno_id");
--> statement-breakpoint
-- What was expected and counted for each medio when the turno closed.
CREATE TABLE "turno_arqueos" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "turno_id" uuid NOT NULL,
  "medio_pago_id" uuid NOT NULL,
  "esperado" numeric(14, 2) NOT NULL,
  "contado" numeric(14, 2) NOT NULL CONSTRAINT "turno_arqueos_contado" CHECK ("contado" >= 0),
  "diferencia" numeric(14, 2) NOT NULL,
  CONSTRAINT "turno_arqueos_pkey" PRIMARY KEY ("turno_id", "medio_pago_id"),
  CONSTRAINT "turno_arqueos_turno_fk" FOREIGN KEY ("business_id", "turno_id") REFERENCES "turnos" ("business_id", "id"),
  CONSTRAINT "turno_arqueos_medio_fk" FOREIGN KEY ("business_id", "medio_pago_id") REFERENCES "payment_methods" ("business_id", "id"),
  CONSTRAINT "turno_arqueos_diferencia" CHECK ("diferencia" = "contado" - "esperado")
);
--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "turno_id" uuid;
--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_turno_fk" FOREIGN KEY ("business_id", "turno_id") REFERENCES "turnos" ("business_id", "id");
--> statement-breakpoint
CREATE INDEX "sales_turno_idx" ON "sales" ("business_id", "turno_id") WHERE "turno_id" IS NOT NULL;
--> statement-breakpoint
-- The surcharges and discounts of the medios de pago (negative for a discount).
ALTER TABLE "sales" ADD COLUMN "ajuste" numeric(14, 2) NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "sales" DROP CONSTRAINT "sales_total";
--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_total" CHECK ("total" = "subtotal" - "descuento" + "ajuste");
--> statement-breakpoint
-- The payments of a sale: the part of the total each medio covers (monto), its surcharge or
-- discount (ajuste), what the customer pays with it (total = monto + ajuste) and, for cash, what
-- was handed over and the change.
CREATE TABLE "sale_payments" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "venta_id" uuid NOT NULL,
  "posicion" integer NOT NULL,
  "medio_pago_id" uuid,
  "metodo_pago" text NOT NULL,
  "tipo" text NOT NULL,
  "nombre" text NOT NULL,
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "sale_payments_monto" CHECK ("monto" >= 0),
  "ajuste" numeric(14, 2) NOT NULL DEFAULT 0,
  "total" numeric(14, 2) NOT NULL CONSTRAINT "sale_payments_total" CHECK ("total" = "monto" + "ajuste" AND "total" >= 0),
  "recibido" numeric(14, 2),
  "vuelto" numeric(14, 2) NOT NULL DEFAULT 0 CONSTRAINT "sale_payments_vuelto" CHECK ("vuelto" >= 0),
  CONSTRAINT "sale_payments_venta_fk" FOREIGN KEY ("business_id", "venta_id") REFERENCES "sales" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "sale_payments_medio_fk" FOREIGN KEY ("business_id", "medio_pago_id") REFERENCES "payment_methods" ("business_id", "id")
);
--> statement-breakpoint
CREATE INDEX "sale_payments_venta_idx" ON "sale_payments" ("business_id", "venta_id", "posicion");
--> statement-breakpoint
-- Every sale of before was paid with one method.
INSERT INTO "sale_payments" ("business_id", "venta_id", "posicion", "medio_pago_id", "metodo_pago", "tipo", "nombre", "monto", "total")
SELECT s.business_id, s.id, 0, pm.id, s.metodo_pago, coalesce(pm.tipo, 'otro'), coalesce(pm.nombre, s.metodo_pago), s.total, s.total
  FROM "sales" s
  LEFT JOIN "payment_methods" pm ON pm.business_id = s.business_id AND pm.nombre = CASE s.metodo_pago
    WHEN 'efectivo' THEN 'Efectivo' WHEN 'tarjeta_debito' THEN 'Tarjeta de Débito'
    WHEN 'tarjeta_credito' THEN 'Tarjeta de Crédito' WHEN 'transferencia' THEN 'Transferencia'
    WHEN 'mercado_pago' THEN 'Mercado Pago' WHEN 'cheque' THEN 'Cheque' ELSE 'Otro' END;
--> statement-breakpoint
ALTER TABLE "finance_movements" ADD COLUMN "medio_pago_id" uuid;
--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_medio_fk" FOREIGN KEY ("business_id", "medio_pago_id") REFERENCES "payment_methods" ("business_id", "id");
--> statement-breakpoint
-- The POS asks for an open turno before selling (on by default).
ALTER TABLE "tenant_settings" ADD COLUMN "caja_requiere_turno" boolean NOT NULL DEFAULT true;
