-- Arqueo a ciegas (issue 33): while a turno is open, members without full access do not see what
-- the caja should hold; they count first and see the result once they close. On by default, also
-- for the businesses that exist already.
ALTER TABLE "tenant_settings" ADD COLUMN "arqueo_ciego" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Who may close a turno: a member with this control closes the turnos they opened; closing another
-- member's turno, or closing without it, takes full access. Members keep closing their own.
ALTER TABLE "business_members" ADD COLUMN "cerrar_turno" boolean DEFAULT true NOT NULL;
