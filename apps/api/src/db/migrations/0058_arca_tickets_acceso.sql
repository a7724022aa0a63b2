-- WSAA tickets de acceso (TA) per certificate and service (docs/decisions/0039-arca-wsaa-and-tls.md):
-- ARCA gives one valid TA per certificate and service, so every business that uses a certificate
-- shares its TA, and an upload of the same certificate keeps it. No business_id: a certificate may
-- be loaded in several businesses, and the row holds only ARCA's credentials for it (not a tenant
-- table). `espera_hasta`: ARCA answered that a TA is already valid while none is stored here (it
-- was lost): nothing can be issued with this certificate until then, at the latest.
CREATE TABLE "arca_tickets_acceso" (
  "certificado" text NOT NULL,
  "servicio" text NOT NULL,
  "entorno" text NOT NULL,
  "cuit" text NOT NULL,
  "token" text,
  "sign" text,
  "generado" timestamp with time zone,
  "vence" timestamp with time zone,
  "espera_hasta" timestamp with time zone,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "arca_tickets_acceso_pkey" PRIMARY KEY ("certificado", "servicio", "entorno")
);--> statement-breakpoint
-- The tickets per business are superseded (they are renewed on the next call, once ARCA lets).
DROP TABLE "arca_tickets";
