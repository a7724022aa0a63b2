-- Mercado Pago at the counter (issue 34, docs/decisions/0052-mercadopago.md).
-- The business's setup: its access token and the webhook secret of its MP application, stored
-- encrypted (as the ARCA keys), and the medio de pago its MP money is recorded with.
CREATE TABLE "mercadopago_config" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "token_cifrado" text NOT NULL,
  "webhook_secret_cifrado" text,
  "medio_pago_id" uuid NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "mercadopago_config_pkey" PRIMARY KEY ("business_id"),
  CONSTRAINT "mercadopago_config_medio_fk" FOREIGN KEY ("business_id", "medio_pago_id")
    REFERENCES "payment_methods" ("business_id", "id")
);--> statement-breakpoint
ALTER TABLE "mercadopago_config" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "mercadopago_config"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- Each caja's MP point of sale (its external_pos_id, for QR orders) and Point terminal.
CREATE TABLE "mercadopago_cajas" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "caja_id" uuid NOT NULL,
  "pos_id" text,
  "terminal_id" text,
  CONSTRAINT "mercadopago_cajas_pkey" PRIMARY KEY ("business_id", "caja_id"),
  CONSTRAINT "mercadopago_cajas_caja_fk" FOREIGN KEY ("business_id", "caja_id")
    REFERENCES "cajas" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "mercadopago_cajas_algo" CHECK ("pos_id" IS NOT NULL OR "terminal_id" IS NOT NULL)
);--> statement-breakpoint
ALTER TABLE "mercadopago_cajas" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "mercadopago_cajas"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- An order sent to MP (a QR to scan or an amount on a Point terminal). `estado` only moves
-- forward from pendiente; `referencia` is the order's external_reference at MP and `clave` the
-- X-Idempotency-Key it was created with. The MP payment it brought (`mp_pago_id`, the order's
-- transaction, and `mp_pago_referencia`, the payment's id in MP's Payments API) is kept when it
-- is approved. `aprobada_tarde`: MP approved it after it was cancelled, expired or rejected here
-- (it is refunded automatically).
CREATE TABLE "mercadopago_ordenes" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "caja_id" uuid NOT NULL,
  "tipo" text NOT NULL CONSTRAINT "mercadopago_ordenes_tipo" CHECK ("tipo" IN ('qr', 'point')),
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "mercadopago_ordenes_monto" CHECK ("monto" > 0),
  "estado" text DEFAULT 'pendiente' NOT NULL CONSTRAINT "mercadopago_ordenes_estado"
    CHECK ("estado" IN ('pendiente', 'aprobada', 'rechazada', 'cancelada', 'expirada')),
  "referencia" text NOT NULL,
  "clave" text NOT NULL,
  "mp_orden_id" text NOT NULL,
  "mp_estado" text NOT NULL,
  "mp_estado_detalle" text,
  "mp_pago_id" text,
  "mp_pago_referencia" text,
  "qr_data" text,
  "aprobada_tarde" boolean DEFAULT false NOT NULL,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "verificado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "aprobada_en" timestamp with time zone,
  CONSTRAINT "mercadopago_ordenes_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "mercadopago_ordenes_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "mercadopago_ordenes_caja_fk" FOREIGN KEY ("business_id", "caja_id")
    REFERENCES "cajas" ("business_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "mercadopago_ordenes_referencia_idx" ON "mercadopago_ordenes" ("business_id", "referencia");--> statement-breakpoint
CREATE UNIQUE INDEX "mercadopago_ordenes_mp_idx" ON "mercadopago_ordenes" ("business_id", "mp_orden_id");--> statement-breakpoint
-- The notifications find the order by MP's id before its business is known.
CREATE INDEX "mercadopago_ordenes_mp_orden_idx" ON "mercadopago_ordenes" ("mp_orden_id");--> statement-breakpoint
-- The polling pass: the pending orders of every business.
CREATE INDEX "mercadopago_ordenes_pendientes_idx" ON "mercadopago_ordenes" ("verificado_en")
  WHERE "estado" = 'pendiente' OR ("aprobada_tarde" AND "estado" <> 'aprobada');--> statement-breakpoint
CREATE INDEX "mercadopago_ordenes_creado_idx" ON "mercadopago_ordenes" ("business_id", "creado_en");--> statement-breakpoint
ALTER TABLE "mercadopago_ordenes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "mercadopago_ordenes"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- A sale's payment made through an MP order: one payment per order, ever (the order's sale).
ALTER TABLE "sale_payments" ADD COLUMN "mercadopago_orden_id" uuid;--> statement-breakpoint
ALTER TABLE "sale_payments" ADD CONSTRAINT "sale_payments_mercadopago_fk" FOREIGN KEY ("business_id", "mercadopago_orden_id")
  REFERENCES "mercadopago_ordenes" ("business_id", "id");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_payments_mercadopago_idx" ON "sale_payments" ("business_id", "mercadopago_orden_id")
  WHERE "mercadopago_orden_id" IS NOT NULL;--> statement-breakpoint

-- Money given back through MP (append-only): by a devolución, an anulación, or automatically for
-- an order approved after it was cancelled. `mp_reembolso_id` is MP's refund, `clave` the
-- X-Idempotency-Key it was asked with.
CREATE TABLE "mercadopago_reembolsos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "orden_id" uuid NOT NULL,
  "origen" text NOT NULL CONSTRAINT "mercadopago_reembolsos_origen"
    CHECK ("origen" IN ('devolucion', 'anulacion', 'aprobada_tarde')),
  "venta_id" uuid,
  "devolucion_id" uuid,
  "monto" numeric(14, 2) NOT NULL CONSTRAINT "mercadopago_reembolsos_monto" CHECK ("monto" > 0),
  "mp_reembolso_id" text,
  "mp_estado" text,
  "clave" text NOT NULL,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "mercadopago_reembolsos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "mercadopago_reembolsos_orden_fk" FOREIGN KEY ("business_id", "orden_id")
    REFERENCES "mercadopago_ordenes" ("business_id", "id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE UNIQUE INDEX "mercadopago_reembolsos_clave_idx" ON "mercadopago_reembolsos" ("business_id", "clave");--> statement-breakpoint
CREATE INDEX "mercadopago_reembolsos_orden_idx" ON "mercadopago_reembolsos" ("business_id", "orden_id");--> statement-breakpoint
ALTER TABLE "mercadopago_reembolsos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "mercadopago_reembolsos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));
