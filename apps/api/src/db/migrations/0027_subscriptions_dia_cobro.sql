-- The billing day the existing client sends: day of the month (1–31; the month's last day when
-- it has fewer) or, for weekly subscriptions, day of the week (0 Sunday … 6 Saturday).
ALTER TABLE "subscriptions" ADD COLUMN "dia_cobro" smallint
  CONSTRAINT "subscriptions_dia_cobro_rango" CHECK ("dia_cobro" BETWEEN 1 AND 31);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "dia_cobro_semanal" smallint
  CONSTRAINT "subscriptions_dia_cobro_semanal_rango" CHECK ("dia_cobro_semanal" BETWEEN 0 AND 6);
