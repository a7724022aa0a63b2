import { listCajas, openTurno } from '../../modules/caja/turnos.service.js';
import { saveSettings } from '../../modules/settings/settings.service.js';
import type { Database } from '../client.js';
import { seedFinance } from './finance.js';
import { seedInventory } from './inventory.js';
import { seedPurchases } from './purchases.js';
import { SALES_DAYS, seedSales } from './sales.js';
import { seedTasks } from './tasks.js';

const CUSTOMERS = [
  {
    nombre: 'María',
    apellido: 'González',
    email: 'maria.gonzalez@ejemplo.com.ar',
    telefono: '+54 9 11 4567-1234',
    documentoTipo: 'DNI',
    documentoNumero: '28456123',
  },
  {
    nombre: 'Juan Carlos',
    apellido: 'Fernández',
    telefono: '+54 9 11 5123-9876',
    documentoTipo: 'DNI',
    documentoNumero: '31789456',
  },
  {
    nombre: 'Lucía',
    apellido: 'Martínez',
    email: 'lucia.martinez@ejemplo.com.ar',
    documentoTipo: 'DNI',
    documentoNumero: '35123789',
  },
  {
    nombre: 'Distribuidora Norte',
    apellido: null,
    email: 'compras@dnorte.com.ar',
    documentoTipo: 'CUIT',
    documentoNumero: '30-71234567-1',
    condicionIva: 'responsable_inscripto',
  },
  { nombre: 'Ramiro', apellido: 'Sosa', telefono: '+54 9 351 555-0101', condicionIva: 'monotributista' },
  { nombre: 'Elena', apellido: 'Ruiz', email: 'elena.ruiz@ejemplo.com.ar' },
] as const;

/** The demo's opening cash (fondo inicial) of today's turno: $ 20.000,00. */
const FONDO_DEMO = 2_000_000;

/**
 * Everything of the demo's Almacén La Esquina up to `today`: catalogue, customers, purchases,
 * months of sales, finance and tasks, written through the services as the app would, and today's
 * turno open on the first caja (opened at `openedAt`, 8:00 in Buenos Aires unless given), so the
 * punto de venta sells at once instead of asking for one.
 */
export async function seedAlmacen(
  database: Database,
  businessId: string,
  userId: string,
  today: string,
  openedAt = new Date(`${today}T11:00:00Z`),
) {
  const { db } = database;
  await saveSettings(db, businessId, userId, { sales_drop_threshold: 15, min_days_for_model: 30 });
  await seedInventory(db, businessId, userId, CUSTOMERS, today);
  await seedPurchases(db, businessId, userId, today);
  await seedSales(database, businessId, userId, today);
  // Sales and purchases above already wrote their income and expenses; the rest of the money
  // (rent, wages, services) covers the same months as the sales.
  await seedFinance(db, businessId, userId, today, { trading: false, days: SALES_DAYS });
  await seedTasks(db, businessId, userId, today);
  const caja = (await listCajas(db, businessId)).find((c) => c.activa);
  if (caja) await openTurno(db, businessId, userId, caja.id, FONDO_DEMO, openedAt);
}
