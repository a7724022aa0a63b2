-- A discount on one line of a sale (issue 15), kept on the line: subtotal = cantidad × precio − descuento.
ALTER TABLE "sale_items" ADD COLUMN "descuento" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_descuento" CHECK ("sale_items"."descuento" >= 0);
