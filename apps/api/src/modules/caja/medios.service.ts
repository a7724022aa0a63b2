import {
  CAJA_MESSAGES,
  type MedioPago,
  type MedioPagoOutput,
  type MedioPagoUpdate,
  type MedioTipo,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.js';
import {
  deleteMedioRow,
  insertMedio,
  listMedioRows,
  lockMedioRow,
  medioInUse,
  nextMedioOrden,
  updateMedioRow,
  type MedioRow as Row,
} from './medios.queries.js';

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
  const rows = await listMedioRows(businessId, ex);
  return rows.map(toMedio);
}

async function lockMedio(ex: Executor, businessId: string, id: string) {
  const r = await lockMedioRow(businessId, id, ex);
  if (!r) throw notFound(CAJA_MESSAGES.medioNotFound);
  return r;
}

export async function createMedio(db: Db, businessId: string, userId: string, input: MedioPagoOutput) {
  try {
    return await db.transaction(async (tx) => {
      const orden = input.orden ?? (await nextMedioOrden(businessId, tx));
      const r = await insertMedio(
        businessId,
        {
          nombre: input.nombre,
          tipo: input.tipo,
          ajustePorcentaje: String(input.ajuste_porcentaje),
          activo: input.activo,
          orden,
        },
        tx,
      );
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
      const r = await updateMedioRow(
        businessId,
        before.id,
        {
          nombre: patch.nombre,
          tipo: patch.tipo,
          ajustePorcentaje: patch.ajuste_porcentaje === undefined ? undefined : String(patch.ajuste_porcentaje),
          activo: patch.activo,
          orden: patch.orden,
          actualizadoEn: new Date(),
        },
        tx,
      );
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
    if (await medioInUse(businessId, id, tx)) {
      const r = await updateMedioRow(businessId, id, { activo: false, actualizadoEn: new Date() }, tx);
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
    await deleteMedioRow(businessId, id, tx);
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
