-- Facturación electrónica ARCA (issue 16, decision 0013): the fiscal setup of each business, the
-- WSAA tickets cached until they expire, the comprobantes, and the IVA rate of what is sold.
ALTER TABLE "products" ADD COLUMN "iva" text DEFAULT '21' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_iva" CHECK ("iva" IN ('21', '10.5', '27', '5', '2.5', '0', 'exento', 'no_gravado'));--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "iva" text DEFAULT '21' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_iva" CHECK ("iva" IN ('21', '10.5', '27', '5', '2.5', '0', 'exento', 'no_gravado'));--> statement-breakpoint
ALTER TABLE "sale_items" ADD COLUMN "iva" text;--> statement-breakpoint
CREATE TABLE "facturacion_config" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "cuit" text NOT NULL,
  "razon_social" text NOT NULL,
  "condicion_iva" text NOT NULL CONSTRAINT "facturacion_config_condicion" CHECK ("condicion_iva" IN ('responsable_inscripto', 'monotributo', 'exento')),
  "inicio_actividades" date,
  "iibb" text,
  "domicilio_fiscal" text,
  "punto_venta" integer NOT NULL,
  "puntos_venta" integer[] NOT NULL,
  "entorno" text DEFAULT 'homologacion' NOT NULL CONSTRAINT "facturacion_config_entorno" CHECK ("entorno" IN ('homologacion', 'produccion')),
  "facturar" text DEFAULT 'elegir' NOT NULL CONSTRAINT "facturacion_config_facturar" CHECK ("facturar" IN ('siempre', 'elegir')),
  "certificado_pem" text,
  "certificado_vence" timestamp with time zone,
  "certificado_cuit" text,
  -- AES-256-GCM under the server key (lib/secret-box.ts): never answered, never logged.
  "clave_cifrada" text,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "facturacion_config_pkey" PRIMARY KEY ("business_id")
);
--> statement-breakpoint
-- A WSAA ticket lasts 12 hours; ARCA refuses a new one while the last is valid, so it is kept.
CREATE TABLE "arca_tickets" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "cuit" text NOT NULL,
  "servicio" text NOT NULL,
  "entorno" text NOT NULL,
  "token" text NOT NULL,
  "sign" text NOT NULL,
  "vence" timestamp with time zone NOT NULL,
  CONSTRAINT "arca_tickets_pkey" PRIMARY KEY ("business_id", "cuit", "servicio", "entorno")
);
--> statement-breakpoint
CREATE TABLE "comprobantes" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "venta_id" uuid NOT NULL,
  "devolucion_id" uuid,
  "asociado_id" uuid,
  "tipo" text NOT NULL CONSTRAINT "comprobantes_tipo" CHECK ("tipo" IN ('factura_a', 'nota_credito_a', 'factura_b', 'nota_credito_b', 'factura_c', 'nota_credito_c')),
  "entorno" text NOT NULL,
  "emisor" jsonb NOT NULL,
  "emisor_cuit" text NOT NULL,
  "punto_venta" integer NOT NULL,
  -- Set (and committed) before the request goes to ARCA: a request whose answer was lost is
  -- resolved with FECompConsultar on this number before anything is sent again.
  "numero" integer,
  "enviado_en" timestamp with time zone,
  "fecha" date NOT NULL,
  "estado" text DEFAULT 'pendiente' NOT NULL CONSTRAINT "comprobantes_estado" CHECK ("estado" IN ('pendiente', 'autorizado', 'rechazado')),
  "cae" text,
  "cae_vencimiento" date,
  "intentos" integer DEFAULT 0 NOT NULL,
  "proximo_intento" timestamp with time zone,
  "error_codigo" text,
  "error_mensaje" text,
  "receptor_nombre" text NOT NULL,
  "receptor_condicion_iva" text NOT NULL,
  "receptor_doc_tipo" text NOT NULL,
  "receptor_doc_nro" text,
  "receptor_domicilio" text,
  "total" numeric(14, 2) NOT NULL,
  "neto" numeric(14, 2) NOT NULL,
  "iva" numeric(14, 2) NOT NULL,
  "tributos" numeric(14, 2) NOT NULL,
  "exento" numeric(14, 2) NOT NULL,
  "no_gravado" numeric(14, 2) NOT NULL,
  "alicuotas" jsonb NOT NULL,
  "lineas" jsonb NOT NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "comprobantes_pkey" PRIMARY KEY ("business_id", "id"),
  CONSTRAINT "comprobantes_venta_fk" FOREIGN KEY ("business_id", "venta_id") REFERENCES "sales" ("business_id", "id"),
  CONSTRAINT "comprobantes_devolucion_fk" FOREIGN KEY ("business_id", "devolucion_id") REFERENCES "devoluciones" ("business_id", "id"),
  CONSTRAINT "comprobantes_asociado_fk" FOREIGN KEY ("business_id", "asociado_id") REFERENCES "comprobantes" ("business_id", "id"),
  CONSTRAINT "comprobantes_importes" CHECK ("neto" + "iva" + "tributos" + "exento" + "no_gravado" = "total")
);
--> statement-breakpoint
-- One invoice per sale; one nota de crédito per return, and one for the void.
CREATE UNIQUE INDEX "comprobantes_factura_key" ON "comprobantes" ("business_id", "venta_id") WHERE "asociado_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "comprobantes_devolucion_key" ON "comprobantes" ("business_id", "devolucion_id") WHERE "devolucion_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "comprobantes_anulacion_key" ON "comprobantes" ("business_id", "asociado_id") WHERE "asociado_id" IS NOT NULL AND "devolucion_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "comprobantes_numero_key" ON "comprobantes" ("business_id", "emisor_cuit", "punto_venta", "tipo", "numero") WHERE "numero" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "comprobantes_fecha_idx" ON "comprobantes" ("business_id", "fecha");--> statement-breakpoint
CREATE INDEX "comprobantes_pendientes_idx" ON "comprobantes" ("proximo_intento") WHERE "estado" = 'pendiente';
