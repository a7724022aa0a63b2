import type { TenantSettings, TenantSettingsInput } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import {
  findSettings,
  insertDefaultSettings,
  lockSettings,
  updateSettings,
  type SettingsRow as Row,
} from './settings.queries.js';

function toSettings(r: Row): TenantSettings {
  return {
    id: r.id,
    tenant_id: r.businessId,
    locale: r.locale as TenantSettings['locale'],
    timezone: r.timezone as TenantSettings['timezone'],
    currency: r.currency as TenantSettings['currency'],
    sales_drop_threshold: Number(r.salesDropThreshold),
    min_days_for_model: r.minDaysForModel,
    balanza: r.balanza ?? null,
    caja_requiere_turno: r.cajaRequiereTurno,
    vender_sin_stock: r.venderSinStock,
    redondeo_precios: r.redondeoPrecios,
    arqueo_ciego: r.arqueoCiego,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** A missing row is created with the defaults, so there is always an id. */
export async function getSettings(db: Db, businessId: string) {
  await insertDefaultSettings(businessId, db);
  const r = await findSettings(businessId, db);
  return toSettings(r!);
}

const toColumns = (i: TenantSettingsInput) => ({
  locale: i.locale,
  timezone: i.timezone,
  currency: i.currency,
  salesDropThreshold: i.sales_drop_threshold === undefined ? undefined : String(i.sales_drop_threshold),
  minDaysForModel: i.min_days_for_model,
  balanza: i.balanza,
  cajaRequiereTurno: i.caja_requiere_turno,
  venderSinStock: i.vender_sin_stock,
  redondeoPrecios: i.redondeo_precios,
  arqueoCiego: i.arqueo_ciego,
});

export async function saveSettings(
  db: Db,
  businessId: string,
  userId: string,
  input: TenantSettingsInput,
  sid?: string,
) {
  return db.transaction(async (tx) => {
    const inserted = sid ? [] : await insertDefaultSettings(businessId, tx);
    const before = await lockSettings(businessId, sid, tx);
    if (!before) throw notFound('Configuración no encontrada.');
    const cols = Object.fromEntries(Object.entries(toColumns(input)).filter(([, v]) => v !== undefined));
    const after = await updateSettings(businessId, before.id, { ...cols, updatedAt: new Date() }, tx);
    const d = diff(toSettings(before) as unknown as Record<string, unknown>, input as Record<string, unknown>);
    if (d.changed || inserted.length) {
      await audit(tx, {
        businessId,
        userId,
        entidad: 'configuracion',
        entidadId: after.id,
        accion: inserted.length ? 'crear' : 'actualizar',
        antes: inserted.length ? null : d.antes,
        despues: d.despues,
      });
    }
    return { settings: toSettings(after), created: inserted.length > 0 };
  });
}
