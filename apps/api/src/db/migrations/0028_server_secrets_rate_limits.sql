-- Secrets every instance on this database shares (the token signing key when JWT_SECRET is not
-- given), created once by the first instance that needs one.
CREATE TABLE "server_secrets" (
  "nombre" text PRIMARY KEY NOT NULL,
  "valor" text NOT NULL,
  "creado_en" timestamptz DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Attempts counted by the rate limits (login, signup, confirmation e-mails) in their current
-- window, shared by every instance; the key is a hash of what is limited (an e-mail, an address).
CREATE TABLE "rate_limit_windows" (
  "limite" text NOT NULL,
  "clave" text NOT NULL,
  "intentos" integer NOT NULL,
  "vence_en" timestamptz NOT NULL,
  CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("limite", "clave")
);
--> statement-breakpoint
CREATE INDEX "rate_limit_windows_vence_idx" ON "rate_limit_windows" USING btree ("vence_en");
