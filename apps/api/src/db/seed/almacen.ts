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

/**
 * Everything of the demo's Almacén La Esquina up to `today`: catalogue, customers, purchases,
 * months of sales, finance and tasks, written through the services as the app would.
 */
export async function seedAlmacen(database: Database, businessId: string, userId: string, today: string) {
  const { db } = database;
  await saveSettings(db, businessId, userId, { sales_drop_threshold: 15, min_days_for_model: 30 });
  await seedInventory(db, businessId, userId, CUSTOMERS, today);
  await seedPurchases(db, businessId, userId, today);
  await seedSales(database, businessId, userId, today);
  // Sales and purchases above already wrote their income and expenses; the rest of the money
  // (rent, wages, services) covers the same months as the sales.
  await seedFinance(db, businessId, userId, today, { trading: false, days: SALES_DAYS });
  await seedTasks(db, businessId, userId, today);
}
