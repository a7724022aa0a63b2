import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { readEnv } from '../config.js';
import { hashPassword } from '../modules/auth/auth.service.js';
import { createBusiness } from '../modules/businesses/businesses.service.js';
import { saveSettings } from '../modules/settings/settings.service.js';
import { openDatabase } from './bootstrap.js';
import { businesses, users } from './schema/index.js';
import { seedInventory } from './seed/inventory.js';
import { seedPurchases } from './seed/purchases.js';
import { seedFinance } from './seed/finance.js';
import { seedTasks } from './seed/tasks.js';
import { seedSales } from './seed/sales.js';
import { todayIn } from '../lib/dates.js';
import { startupMessage } from '../lib/startup-error.js';

export const DEMO_EMAIL = 'demo@mostrador.com.ar';
export const DEMO_PASSWORD = 'mostrador-demo';

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
 * A demo user with a business full of realistic Argentine data, for trying Mostrador. Running
 * it again replaces the demo account and its businesses.
 */
async function main() {
  const env = readEnv();
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true }); // a fresh checkout: seeding before the first npm start
  const open = await openDatabase(env.DATABASE_URL, dataDir, 5);
  const { db } = open.database;
  try {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_EMAIL));
    if (existing) {
      const own = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.creadaPor, existing.id));
      if (own.length)
        await db.delete(businesses).where(
          inArray(
            businesses.id,
            own.map((b) => b.id),
          ),
        );
      await db.delete(users).where(eq(users.id, existing.id));
    }
    const now = new Date();
    const [user] = await db
      .insert(users)
      .values({
        email: DEMO_EMAIL,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        nombre: 'Carla',
        apellido: 'Demo',
        emailConfirmedAt: now,
      })
      .returning();
    const almacen = await createBusiness(
      db,
      user.id,
      {
        nombre: 'Almacén La Esquina',
        tipo: 'Comercio',
        descripcion: 'Almacén y despensa de barrio en Palermo.',
        cuit: '20-12345678-6',
      },
      now,
    );
    await createBusiness(
      db,
      user.id,
      { nombre: 'Peluquería Estilo', tipo: 'Servicio', descripcion: 'Cortes, color y peinados.' },
      now,
    );
    await saveSettings(db, almacen.id, user.id, { sales_drop_threshold: 15, min_days_for_model: 30 });
    await seedInventory(db, almacen.id, user.id, CUSTOMERS, todayIn('America/Argentina/Buenos_Aires', now));
    await seedPurchases(db, almacen.id, user.id, todayIn('America/Argentina/Buenos_Aires', now));
    await seedSales(open.database, almacen.id, user.id, todayIn('America/Argentina/Buenos_Aires', now));

    const today = todayIn('America/Argentina/Buenos_Aires', now);
    // Sales and purchases above already wrote their income and expenses.
    await seedFinance(db, almacen.id, user.id, today, { trading: false });
    await seedTasks(db, almacen.id, user.id, today);

    console.warn(`Datos de demostración listos. Entra con ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  } finally {
    await open.close();
  }
}

main().catch((e) => {
  console.error(startupMessage(e, { dataDir: path.resolve(process.env.DATA_DIR ?? './data') }));
  process.exit(1);
});
