-- Lines recorded before 0011 take their sale's date and state.
UPDATE "sale_items" i SET "fecha" = s."fecha", "anulada" = (s."estado" = 'anulada')
  FROM "sales" s
 WHERE s."business_id" = i."business_id" AND s."id" = i."venta_id" AND i."fecha" IS NULL;
