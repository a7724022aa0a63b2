-- What a member may do at the counter beyond selling (kept apart from the 32 module flags of the
-- contract): see costs and margins, change a line's price, and the largest discount in percent
-- without that permission (NULL: no limit).
ALTER TABLE "business_members" ADD COLUMN "ver_costos" boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE "business_members" ADD COLUMN "cambiar_precios" boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE "business_members" ADD COLUMN "descuento_maximo" numeric(5, 2) DEFAULT 0
  CONSTRAINT "business_members_descuento_maximo_rango" CHECK ("descuento_maximo" BETWEEN 0 AND 100);
--> statement-breakpoint
-- Members from before keep what they could do: whoever manages products or purchases sees costs,
-- whoever edits products changes prices, and nobody had a discount limit.
UPDATE "business_members"
   SET "ver_costos" = coalesce(("permisos"->>'puede_editar_productos')::boolean, false)
                      OR coalesce(("permisos"->>'puede_ver_stock')::boolean, false),
       "cambiar_precios" = coalesce(("permisos"->>'puede_editar_productos')::boolean, false),
       "descuento_maximo" = NULL;
--> statement-breakpoint
-- The catalogue price when the line was sold, so a price changed at the counter shows as such.
ALTER TABLE "sale_items" ADD COLUMN "precio_lista" numeric(14, 2);
