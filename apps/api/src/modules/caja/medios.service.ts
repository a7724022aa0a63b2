import { and, asc, eq, sql } from 'drizzle-orm';
import {
  CAJA_MESSAGES,
  type MedioPago,
  type MedioPagoOutput,
  type MedioPagoUpdate,
  type MedioTipo,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { paymentMethods } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.js';

type Row = typeof paymentMethods.$inferSelect;

export const toMedio = (r: Row): MedioPago => ({
  id: r.id,
  nombre: r.nombre,
  tipo: r.tipo as MedioTipo,
  ajuste_porcentaje: Number(r.ajustePorcentaje),
  activo: r.activo,
  orden: r.orden,
});

const nameTaken = () => new AppError(409, 'DUPLICATE', CAJA_MESSAGES.medioNameTaken, { field: 'nombre' });

export async function listMedios(ex: Executor, businessId: string): Promise<MedioPago[]> {
  const rows = await ex
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.businessId, businessId))
    .orderBy(asc(paymentMethods.orden), asc(paymentMethods.nombre));
  return rows.map(toMedio);
}

async function lockMedio(ex: Executor, businessId: string, id: string) {
  const [r] = await ex
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, id)))
    .for('update');
  if (!r) throw notFound(CAJA_MESSAGES.medioNotFound);
  return r;
}

export async function createMedio(db: Db, businessId: string, userId: string, input: MedioPagoOutput) {
  try {
    return await db.transaction(async (tx) => {
      const orden =
        input.orden ??
        (
          await tx
            .select({ n: sql<number>`coalesce(max(${paymentMethods.orden}), 0)::int + 1` })
            .from(paymentMethods)
            .where(eq(paymentMethods.businessId, businessId))
        )[0].n;
      const [r] = await tx
        .insert(paymentMethods)
        .values({
          businessId,
          nombre: input.nombre,
          tipo: input.tipo,
          ajustePorcentaje: String(input.ajuste_porcentaje),
          activo: input.activo,
          orden,
        })
        .returning();
      const medio = toMedio(r);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'medio_pago',
        entidadId: r.id,
        accion: 'crear',
        despues: { ...medio },
      });
      return medio;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
}

export async function updateMedio(db: Db, businessId: string, userId: string, id: string, patch: MedioPagoUpdate) {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockMedio(tx, businessId, id);
      const [r] = await tx
        .update(paymentMethods)
        .set({
          nombre: patch.nombre,
          tipo: patch.tipo,
          ajustePorcentaje: patch.ajuste_porcentaje === undefined ? undefined : String(patch.ajuste_porcentaje),
          activo: patch.activo,
          orden: patch.orden,
          actualizadoEn: new Date(),
        })
        .where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, before.id)))
        .returning();
      const after = toMedio(r);
      const d = diff(
        toMedio(before) as unknown as Record<string, unknown>,
        after as unknown as Record<string, unknown>,
      );
      if (d.changed) {
        await audit(tx, {
          businessId,
          userId,
          entidad: 'medio_pago',
          entidadId: id,
          accion: 'actualizar',
          antes: d.antes,
          despues: d.despues,
        });
      }
      return after;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
}

/** A medio already used by a sale, a movement, a closing or a return is deactivated instead of deleted. */
export async function deleteMedio(db: Db, businessId: string, userId: string, id: string) {
  return db.transaction(async (tx) => {
    const before = await lockMedio(tx, businessId, id);
    const used = await tx.execute(sql`
      SELECT 1 FROM sale_payments WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM finance_movements WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM turno_arqueos WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      UNION ALL SELECT 1 FROM devoluciones WHERE business_id = ${businessId} AND medio_pago_id = ${id}
      LIMIT 1`);
    if (used.rows.length) {
      const [r] = await tx
        .update(paymentMethods)
        .set({ activo: false, actualizadoEn: new Date() })
        .where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, id)))
        .returning();
      if (before.activo) {
        await audit(tx, {
          businessId,
          userId,
          entidad: 'medio_pago',
          entidadId: id,
          accion: 'actualizar',
          antes: { activo: true },
          despues: { activo: false },
        });
      }
      return { desactivado: true, medio: toMedio(r), mensaje: CAJA_MESSAGES.medioDeactivated };
    }
    await tx.delete(paymentMethods).where(and(eq(paymentMethods.businessId, businessId), eq(paymentMethods.id, id)));
    await audit(tx, {
      businessId,
      userId,
      entidad: 'medio_pago',
      entidadId: id,
      accion: 'eliminar',
      antes: { ...toMedio(before) },
    });
    return { desactivado: false, medio: null, mensaje: CAJA_MESSAGES.medioDeleted };
  });
}
