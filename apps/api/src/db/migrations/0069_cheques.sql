-- Cheques (issue 37, docs/decisions/0057-cheques.md): third-party cheques received as payment (the
-- cartera) and the business's own cheques given to suppliers. A cheque's row never changes but
-- for its state (estado, and the supplier it was endorsed to): every change is also a row of
-- cheque_eventos, the append-only history. A rejection's debt to the customer is its event's
-- `deuda` (the amount plus the bank's fees), which the customer's account adds.
CREATE TABLE "cheques" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "tipo" text NOT NULL CONSTRAINT "cheques_tipo" CHECK ("tipo" IN ('tercero', 'propio')),
  "electronico" boolean DEFAULT false NOT NULL,
  "banco" text NOT NULL,
  "numero" text NOT NULL CONSTRAINT "cheques_numero" CHECK ("numero" ~ '^[0-9]{1,12}$'),
  "fecha_emision" date,
  "fecha_pago" date NOT NULL,
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "cheques_monto" CHECK ("monto" > 0),
  "librador_nombre" text,
  "librador_cuit" text,
  "estado" text NOT NULL CONSTRAINT "cheques_estado" CHECK ("estado" IN
    ('en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'entregado', 'anulado')),
  "cliente_id" uuid,
  "proveedor_id" uuid,
  "venta_id" uuid,
  "cobro_id" uuid,
  "observaciones" text,
  "creado_por" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "cheques_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "cheques_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "cheques_cliente_fk" FOREIGN KEY ("business_id", "cliente_id") REFERENCES "customers" ("business_id", "id"),
  CONSTRAINT "cheques_proveedor_fk" FOREIGN KEY ("business_id", "proveedor_id") REFERENCES "suppliers" ("business_id", "id"),
  CONSTRAINT "cheques_venta_fk" FOREIGN KEY ("business_id", "venta_id") REFERENCES "sales" ("business_id", "id"),
  CONSTRAINT "cheques_cobro_fk" FOREIGN KEY ("business_id", "cobro_id") REFERENCES "cobros" ("business_id", "id"),
  CONSTRAINT "cheques_estado_tipo" CHECK (
    ("tipo" = 'tercero' AND "estado" IN ('en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'anulado'))
    OR ("tipo" = 'propio' AND "estado" IN ('entregado', 'cobrado', 'anulado'))),
  CONSTRAINT "cheques_fechas" CHECK ("fecha_emision" IS NULL OR "fecha_emision" <= "fecha_pago")
);--> statement-breakpoint
CREATE INDEX "cheques_vencimiento_idx" ON "cheques" ("business_id", "estado", "fecha_pago");--> statement-breakpoint
CREATE INDEX "cheques_cliente_idx" ON "cheques" ("business_id", "cliente_id") WHERE "cliente_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "cheques_venta_idx" ON "cheques" ("business_id", "venta_id") WHERE "venta_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "cheques" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "cheques"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- Every state a cheque took, in order (append-only). On a rejection, `cliente_id` and `deuda`
-- are what went to the customer's account.
CREATE TABLE "cheque_eventos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "cheque_id" uuid NOT NULL,
  "estado" text NOT NULL CONSTRAINT "cheque_eventos_estado" CHECK ("estado" IN
    ('en_cartera', 'depositado', 'endosado', 'cobrado', 'rechazado', 'entregado', 'anulado')),
  "anterior" text,
  "fecha" date NOT NULL,
  "proveedor_id" uuid,
  "cliente_id" uuid,
  "gastos_bancarios" numeric(14, 2) CONSTRAINT "cheque_eventos_gastos" CHECK ("gastos_bancarios" >= 0),
  "deuda" numeric(14, 2) CONSTRAINT "cheque_eventos_deuda" CHECK ("deuda" > 0),
  "motivo" text,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "cheque_eventos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "cheque_eventos_cheque_fk" FOREIGN KEY ("business_id", "cheque_id") REFERENCES "cheques" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "cheque_eventos_proveedor_fk" FOREIGN KEY ("business_id", "proveedor_id") REFERENCES "suppliers" ("business_id", "id"),
  CONSTRAINT "cheque_eventos_cliente_fk" FOREIGN KEY ("business_id", "cliente_id") REFERENCES "customers" ("business_id", "id"),
  CONSTRAINT "cheque_eventos_deuda_cliente" CHECK ("deuda" IS NULL OR "cliente_id" IS NOT NULL)
);--> statement-breakpoint
CREATE INDEX "cheque_eventos_cheque_idx" ON "cheque_eventos" ("business_id", "cheque_id", "creado_en");--> statement-breakpoint
CREATE INDEX "cheque_eventos_deuda_idx" ON "cheque_eventos" ("business_id", "cliente_id") WHERE "deuda" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "cheque_eventos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "cheque_eventos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- What a cheque paid of a supplier's payables (an endorsed third-party cheque, or one of ours
-- given): the supplier's account shows each as a payment (append-only).
CREATE TABLE "cheque_pagos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "cheque_id" uuid NOT NULL,
  "cuenta_id" uuid NOT NULL,
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "cheque_pagos_monto" CHECK ("monto" > 0),
  "fecha" date NOT NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "cheque_pagos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "cheque_pagos_cheque_fk" FOREIGN KEY ("business_id", "cheque_id") REFERENCES "cheques" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "cheque_pagos_cuenta_fk" FOREIGN KEY ("business_id", "cuenta_id") REFERENCES "finance_accounts" ("business_id", "id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE INDEX "cheque_pagos_cuenta_idx" ON "cheque_pagos" ("business_id", "cuenta_id");--> statement-breakpoint
CREATE INDEX "cheque_pagos_cheque_idx" ON "cheque_pagos" ("business_id", "cheque_id");--> statement-breakpoint
ALTER TABLE "cheque_pagos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "cheque_pagos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- The finance movements a cheque made (origen 'cheque': credited, debited, endorsed, its fees).
ALTER TABLE "finance_movements" ADD COLUMN "cheque_id" uuid;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_cheque_fk" FOREIGN KEY ("business_id", "cheque_id")
  REFERENCES "cheques" ("business_id", "id");--> statement-breakpoint
CREATE INDEX "finance_movements_cheque_idx" ON "finance_movements" ("business_id", "cheque_id") WHERE "cheque_id" IS NOT NULL;
