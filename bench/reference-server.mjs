// The reference of the list-route benchmark: a bare Fastify route (no auth, no plugins, no logger)
// that runs the SQL of listBusinesses (apps/api/src/modules/businesses/businesses.service.ts)
// through a pg Pool and answers the same JSON. Started by startup-and-routes.mjs in its own process,
// like the real server, so autocannon does not share its event loop.
//
// Environment: DATABASE_URL, PORT, USER_ID (the benchmark user: the real route takes it from the token).
import Fastify from 'fastify';
import pg from 'pg';

const { DATABASE_URL, PORT, USER_ID } = process.env;
if (!DATABASE_URL || !PORT || !USER_ID) {
  console.error('reference-server: faltan DATABASE_URL, PORT o USER_ID');
  process.exit(2);
}

// Same pool size as the server (openDatabase: 20).
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20 });
pool.on('error', () => {});

// The columns Drizzle selects for `{ b: businesses, rol: businessMembers.rol }`, same join, filter and order.
const SQL = `
  SELECT b.id, b.nombre, b.tipo, b.descripcion, b.cuit, b.creada_por, b.plan, b.trial_ends_at,
         b.creada_en, b.actualizada_en, m.rol
    FROM business_members m
    JOIN businesses b ON b.id = m.business_id
   WHERE m.user_id = $1 AND m.estado = 'aceptado'
   ORDER BY m.creada_en ASC, b.id ASC`;

const app = Fastify({ logger: false });

app.get('/reference', async () => {
  const { rows } = await pool.query(SQL, [USER_ID]);
  // The same shape as toBusiness(), so both routes send the same bytes.
  return rows.map((r) => ({
    id: r.id,
    nombre: r.nombre,
    tipo: r.tipo,
    descripcion: r.descripcion,
    cuit: r.cuit,
    creada_por: r.creada_por,
    creada_en: r.creada_en.toISOString(),
    rol: r.rol,
    es_creador: r.creada_por === USER_ID,
  }));
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await app.close().catch(() => {});
  await pool.end().catch(() => {});
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

await app.listen({ port: Number(PORT), host: '127.0.0.1' });
