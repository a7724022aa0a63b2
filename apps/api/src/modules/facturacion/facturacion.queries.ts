import { eq, sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { IvaRate } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { facturacionConfig } from '../../db/schema/index.js';

/*
 * The fiscal setup's statements (decision 0044), each taking the business first: the setup, the
 * business's day and the IVA rates of its catalogue. The CAEA sweep's list of businesses goes
 * across them (through its reviewed cross-business path in caea.ts).
 */

export type ConfigRow = typeof facturacionConfig.$inferSelect;
type ConfigValues = Omit<typeof facturacionConfig.$inferInsert, 'businessId'>;

export async function configRow(businessId: string, ex: Executor): Promise<ConfigRow | null> {
  const [c] = await ex.select().from(facturacionConfig).where(eq(facturacionConfig.businessId, businessId));
  return c ?? null;
}

/** The setup, held until the transaction ends (it is about to change). */
export async function lockConfig(businessId: string, ex: Executor): Promise<ConfigRow | undefined> {
  const [c] = await ex
    .select()
    .from(facturacionConfig)
    .where(eq(facturacionConfig.businessId, businessId))
    .for('update');
  return c;
}

/** The whole setup, created or replaced. */
export async function saveConfig(businessId: string, v: ConfigValues, ex: Executor): Promise<ConfigRow> {
  const values = { businessId, ...v };
  const [saved] = await ex
    .insert(facturacionConfig)
    .values(values)
    .onConflictDoUpdate({ target: facturacionConfig.businessId, set: values })
    .returning();
  return saved;
}

/**
 * A new key for a CSR: a setup is started with it, or the existing one takes it and loses its
 * certificate.
 */
export async function saveCsrKey(
  businessId: string,
  v: { cuit: string; razonSocial: string; claveCifrada: string },
  ex: Executor,
) {
  await ex
    .insert(facturacionConfig)
    .values({
      businessId,
      cuit: v.cuit,
      razonSocial: v.razonSocial,
      condicionIva: 'monotributo',
      puntoVenta: 1,
      puntosVenta: [1],
      claveCifrada: v.claveCifrada,
    })
    .onConflictDoUpdate({
      target: facturacionConfig.businessId,
      set: {
        cuit: v.cuit,
        razonSocial: v.razonSocial,
        claveCifrada: v.claveCifrada,
        certificadoPem: null,
        certificadoVence: null,
        certificadoCuit: null,
        actualizadoEn: new Date(),
      },
    });
}

/** The business's day at `now` (YYYY-MM-DD) in its time zone; undefined without an answer. */
export async function businessDay(businessId: string, now: Date, pool: Pool) {
  const { rows } = await pool.query<{ d: string }>(
    `SELECT to_char(($2::timestamptz AT TIME ZONE coalesce(
                (SELECT t.timezone FROM tenant_settings t WHERE t.business_id = $1), 'America/Argentina/Buenos_Aires'))::date,
              'YYYY-MM-DD') AS d`,
    [businessId, now],
  );
  return rows[0]?.d;
}

/**
 * The IVA rate of products and of services: those of `ids`, else those of the category, else
 * none. Answers how many of each changed.
 */
export async function setCatalogIva(
  businessId: string,
  iva: IvaRate,
  pick: { productos?: string[]; servicios?: string[]; categoriaId?: string },
  ex: Executor,
) {
  const which = (ids: string[] | undefined) =>
    ids?.length ? sql`id IN ${ids}` : pick.categoriaId ? sql`categoria_id = ${pick.categoriaId}` : sql`false`;
  const p = await ex.execute(
    sql`UPDATE products SET iva = ${iva}, actualizado_en = now() WHERE business_id = ${businessId} AND ${which(pick.productos)}`,
  );
  const s = await ex.execute(
    sql`UPDATE services SET iva = ${iva}, actualizado_en = now() WHERE business_id = ${businessId} AND ${which(pick.servicios)}`,
  );
  return { productos: p.rowCount ?? 0, servicios: s.rowCount ?? 0 };
}

/* ---------------------------------------------------------------- across businesses */

/** The businesses with a CAEA punto de venta, a certificate and a key. */
export function caeaBusinesses(pool: Pool) {
  return pool.query<{ business_id: string }>(
    `SELECT business_id FROM facturacion_config
          WHERE caea_punto_venta IS NOT NULL AND certificado_pem IS NOT NULL AND clave_cifrada IS NOT NULL`,
  );
}
