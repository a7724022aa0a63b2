import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { readEnv } from '../config.js';
import { hashPassword } from '../modules/auth/auth.service.js';
import { createBusiness } from '../modules/businesses/businesses.service.js';
import { openDatabase } from './bootstrap.js';
import { seedAlmacen } from './seed/almacen.js';
import { businesses, users } from './schema/index.js';
import { enNegocio, todosLosNegocios } from './tenant.js';
import { todayIn } from '../lib/dates.js';
import { startupMessage } from '../lib/startup-error.js';

export const DEMO_EMAIL = 'demo@mostrador.com.ar';
export const DEMO_PASSWORD = 'mostrador-demo';

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
      await todosLosNegocios('seed:demo reemplaza los negocios de la cuenta de demostración', async () => {
        const own = await db
          .select({ id: businesses.id })
          .from(businesses)
          .where(eq(businesses.creadaPor, existing.id));
        if (own.length)
          await db.delete(businesses).where(
            inArray(
              businesses.id,
              own.map((b) => b.id),
            ),
          );
      });
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
    await enNegocio(almacen.id, () =>
      seedAlmacen(open.database, almacen.id, user.id, todayIn('America/Argentina/Buenos_Aires', now), now),
    );

    console.warn(`Datos de demostración listos. Entrá con ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  } finally {
    await open.close();
  }
}

main().catch((e) => {
  console.error(startupMessage(e, { dataDir: path.resolve(process.env.DATA_DIR ?? './data') }));
  process.exit(1);
});
