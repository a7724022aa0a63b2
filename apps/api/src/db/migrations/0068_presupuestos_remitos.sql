-- Presupuestos y remitos (issue 37, docs/decisions/0056-presupuestos-y-remitos.md).
-- A presupuesto is a quote to a customer: editable while it is a draft or sent, numbered per
-- business, priced with the customer's list. `estado` is what the user made of it; `vencido` is
-- not stored: a borrador or enviado one reads as vencido after `vence` (its day in the business's
-- time zone). Converted, it names the sale or the remito it became.
CREATE TABLE "presupuestos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "numero" integer NOT NULL,
  "fecha" date NOT NULL,
  "cliente_id" uuid NOT NULL,
  "estado" text DEFAULT 'borrador' NOT NULL CONSTRAINT "presupuestos_estado"
    CHECK ("estado" IN ('borrador', 'enviado', 'aceptado', 'convertido', 'anulado')),
  "validez_dias" integer NOT NULL CONSTRAINT "presupuestos_validez" CHECK ("validez_dias" BETWEEN 1 AND 365),
  "vence" date NOT NULL,
  "subtotal" numeric(14, 2) NOT NULL,
  "descuento" numeric(14, 2) DEFAULT 0 NOT NULL,
  "total" numeric(14, 2) NOT NULL,
  "notas" text,
  "venta_id" uuid,
  "remito_id" uuid,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "presupuestos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "presupuestos_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "presupuestos_business_numero_key" UNIQUE ("business_id", "numero"),
  CONSTRAINT "presupuestos_cliente_fk" FOREIGN KEY ("business_id", "cliente_id")
    REFERENCES "customers" ("business_id", "id"),
  CONSTRAINT "presupuestos_venta_fk" FOREIGN KEY ("business_id", "venta_id")
    REFERENCES "sales" ("business_id", "id"),
  CONSTRAINT "presupuestos_montos" CHECK ("subtotal" >= 0 AND "descuento" >= 0 AND "total" >= 0)
);--> statement-breakpoint
CREATE INDEX "presupuestos_fecha_idx" ON "presupuestos" ("business_id", "fecha" DESC, "numero" DESC);--> statement-breakpoint
CREATE INDEX "presupuestos_cliente_idx" ON "presupuestos" ("business_id", "cliente_id");--> statement-breakpoint
ALTER TABLE "presupuestos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "presupuestos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- Its lines, written again whole when the presupuesto is edited.
CREATE TABLE "presupuesto_items" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "presupuesto_id" uuid NOT NULL,
  "posicion" integer NOT NULL,
  "tipo" text NOT NULL CONSTRAINT "presupuesto_items_tipo" CHECK ("tipo" IN ('producto', 'servicio')),
  "producto_id" uuid,
  "servicio_id" uuid,
  "nombre" text NOT NULL,
  "cantidad" numeric(14, 3) NOT NULL CONSTRAINT "presupuesto_items_cantidad" CHECK ("cantidad" > 0),
  "precio_unitario" numeric(14, 2) NOT NULL,
  "precio_lista" numeric(14, 2) NOT NULL,
  "descuento" numeric(14, 2) DEFAULT 0 NOT NULL,
  "subtotal" numeric(14, 2) NOT NULL,
  CONSTRAINT "presupuesto_items_pkey" PRIMARY KEY ("presupuesto_id", "posicion", "business_id"),
  CONSTRAINT "presupuesto_items_presupuesto_fk" FOREIGN KEY ("business_id", "presupuesto_id")
    REFERENCES "presupuestos" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "presupuesto_items_producto_fk" FOREIGN KEY ("business_id", "producto_id")
    REFERENCES "products" ("business_id", "id"),
  CONSTRAINT "presupuesto_items_servicio_fk" FOREIGN KEY ("business_id", "servicio_id")
    REFERENCES "services" ("business_id", "id"),
  CONSTRAINT "presupuesto_items_uno" CHECK (("producto_id" IS NULL) <> ("servicio_id" IS NULL))
);--> statement-breakpoint
CREATE INDEX "presupuesto_items_producto_idx" ON "presupuesto_items" ("business_id", "producto_id") WHERE "producto_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "presupuesto_items_servicio_idx" ON "presupuesto_items" ("business_id", "servicio_id") WHERE "servicio_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "presupuesto_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "presupuesto_items"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- A remito: goods delivered to a customer, their stock taken when it is written (a stock
-- movement of origen 'remito'), invoiced later by one sale that moves no stock. A ledger: only
-- its state columns change (pendiente → facturado with its sale, or → anulado, which gives the
-- stock back with new movements).
CREATE TABLE "remitos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "numero" integer NOT NULL,
  "fecha" timestamp with time zone NOT NULL,
  "cliente_id" uuid NOT NULL,
  "presupuesto_id" uuid,
  "estado" text DEFAULT 'pendiente' NOT NULL CONSTRAINT "remitos_estado"
    CHECK ("estado" IN ('pendiente', 'facturado', 'anulado')),
  "subtotal" numeric(14, 2) NOT NULL,
  "descuento" numeric(14, 2) DEFAULT 0 NOT NULL,
  "total" numeric(14, 2) NOT NULL,
  "notas" text,
  "venta_id" uuid,
  "facturado_en" timestamp with time zone,
  "anulado_en" timestamp with time zone,
  "anulado_por" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "motivo_anulacion" text,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  CONSTRAINT "remitos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "remitos_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "remitos_business_numero_key" UNIQUE ("business_id", "numero"),
  CONSTRAINT "remitos_cliente_fk" FOREIGN KEY ("business_id", "cliente_id")
    REFERENCES "customers" ("business_id", "id"),
  CONSTRAINT "remitos_presupuesto_fk" FOREIGN KEY ("business_id", "presupuesto_id")
    REFERENCES "presupuestos" ("business_id", "id"),
  CONSTRAINT "remitos_venta_fk" FOREIGN KEY ("business_id", "venta_id")
    REFERENCES "sales" ("business_id", "id"),
  CONSTRAINT "remitos_facturado" CHECK (("estado" = 'facturado') = ("venta_id" IS NOT NULL)),
  CONSTRAINT "remitos_montos" CHECK ("subtotal" >= 0 AND "descuento" >= 0 AND "total" >= 0)
);--> statement-breakpoint
CREATE INDEX "remitos_fecha_idx" ON "remitos" ("business_id", "fecha" DESC);--> statement-breakpoint
CREATE INDEX "remitos_pendientes_idx" ON "remitos" ("business_id", "cliente_id") WHERE "estado" = 'pendiente';--> statement-breakpoint
CREATE INDEX "remitos_venta_idx" ON "remitos" ("business_id", "venta_id") WHERE "venta_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "remitos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "remitos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- What a remito delivered, at the price it is to be invoiced (append-only).
CREATE TABLE "remito_items" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "remito_id" uuid NOT NULL,
  "posicion" integer NOT NULL,
  "tipo" text NOT NULL CONSTRAINT "remito_items_tipo" CHECK ("tipo" IN ('producto', 'servicio')),
  "producto_id" uuid,
  "servicio_id" uuid,
  "nombre" text NOT NULL,
  "cantidad" numeric(14, 3) NOT NULL CONSTRAINT "remito_items_cantidad" CHECK ("cantidad" > 0),
  "precio_unitario" numeric(14, 2) NOT NULL,
  "descuento" numeric(14, 2) DEFAULT 0 NOT NULL,
  "subtotal" numeric(14, 2) NOT NULL,
  CONSTRAINT "remito_items_pkey" PRIMARY KEY ("remito_id", "posicion", "business_id"),
  CONSTRAINT "remito_items_remito_fk" FOREIGN KEY ("business_id", "remito_id")
    REFERENCES "remitos" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "remito_items_producto_fk" FOREIGN KEY ("business_id", "producto_id")
    REFERENCES "products" ("business_id", "id"),
  CONSTRAINT "remito_items_servicio_fk" FOREIGN KEY ("business_id", "servicio_id")
    REFERENCES "services" ("business_id", "id"),
  CONSTRAINT "remito_items_uno" CHECK (("producto_id" IS NULL) <> ("servicio_id" IS NULL))
);--> statement-breakpoint
CREATE INDEX "remito_items_producto_idx" ON "remito_items" ("business_id", "producto_id") WHERE "producto_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "remito_items_servicio_idx" ON "remito_items" ("business_id", "servicio_id") WHERE "servicio_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "remito_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "remito_items"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

ALTER TABLE "presupuestos" ADD CONSTRAINT "presupuestos_remito_fk" FOREIGN KEY ("business_id", "remito_id")
  REFERENCES "remitos" ("business_id", "id");
