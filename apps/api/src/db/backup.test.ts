import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createBusiness, registerUser, type TestUser } from '../test/fixtures.js';
import { backupName, hotBackup, listBackups, pruneBackups, restoreBackup } from './backup.js';
import { DATABASE_NAME, openDatabase, type OpenDatabase } from './bootstrap.js';

// A real Mostrador on its own embedded PostgreSQL (as npm start runs it), sold to while the
// backup runs; the backup restored into a fresh DATA_DIR and started.
const root = mkdtempSync(path.join(tmpdir(), 'mostrador-copia-'));
// PostgreSQL runs as the user "postgres" when the tests run as root: it must reach the data.
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function serve(dataDir: string): Promise<{ db: OpenDatabase; app: App }> {
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const db = await openDatabase(undefined, dataDir, 12);
  const app = await buildApp({
    database: db.database,
    jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
    publicUrl: 'http://localhost:3000',
    passwordCost: { memoryCost: 1024, timeCost: 1 },
  });
  await app.ready();
  return { db, app };
}

describe('backups of the embedded database', () => {
  it('a hot backup under a load of sales restores into a fresh DATA_DIR with every acknowledged sale', async () => {
    const dataDir = path.join(root, 'local');
    const { db, app } = await serve(dataDir);
    let owner: TestUser;
    const acked: string[] = [];
    let ackedAtWalEnd: string[] = [];
    const duringCopy: string[] = [];
    let file: string;
    try {
      owner = await registerUser(app, 'Copia');
      const biz = await createBusiness(app, owner, 'Almacén Copia');
      const prod = await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${biz}/products`,
        headers: owner.auth,
        payload: { nombre: 'Yerba 1 kg', precio_venta: 4900, stock_actual: 100000 },
      });
      expect(prod.statusCode, prod.body).toBe(201);
      const sell = async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/ventas/record-sale',
          headers: owner.auth,
          payload: { metodo_pago: 'efectivo', items: [{ id: prod.json().id, tipo: 'producto', cantidad: 1 }] },
        });
        expect(res.statusCode, res.body).toBe(201);
        acked.push(res.json().id);
        return res.json().id as string;
      };
      for (let i = 0; i < 10; i++) await sell();
      // Three sellers keep selling until the backup is done.
      let selling = true;
      const sellers = Array.from({ length: 3 }, async () => {
        while (selling) await sell();
      });
      const backup = await hotBackup({
        ownerUrl: db.embedded!.url(DATABASE_NAME),
        dataDir,
        folder: path.join(root, 'copias'),
        // 20 more sales acknowledged while the data files are being copied.
        onCopying: async () => {
          for (let i = 0; i < 20; i++) duringCopy.push(await sell());
        },
        onWalEnd: () => {
          ackedAtWalEnd = [...acked];
        },
      }).finally(async () => {
        selling = false;
        await Promise.all(sellers);
      });
      file = backup.file;
      expect(path.basename(file)).toMatch(/^mostrador-\d{4}-\d{2}-\d{2}-\d{6}\.tar\.gz$/);
      expect(backup.bytes).toBeGreaterThan(0);
      expect(listBackups(path.join(root, 'copias')).map((b) => b.file)).toEqual([file]);
      expect(ackedAtWalEnd.length).toBeGreaterThanOrEqual(30);
      expect(ackedAtWalEnd).toEqual(expect.arrayContaining(duringCopy));
    } finally {
      await app.close();
      await db.close();
    }

    // Restored into a fresh DATA_DIR: works at the first start, with the sales and the logins.
    const fresh = path.join(root, 'restaurado');
    expect(await restoreBackup(file, fresh)).toEqual({ kept: null });
    const again = await serve(fresh);
    try {
      const rows = await again.db.asOwner((o) => o.pool.query<{ id: string }>('SELECT id FROM sales'));
      const ids = new Set(rows.rows.map((r) => r.id));
      const missing = ackedAtWalEnd.filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
      // The owner logs in (the token key came along) and the stock matches the sales kept.
      const login = await again.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: owner!.email, password: 'clave-segura-123' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const stock = await again.db.asOwner((o) =>
        o.pool.query<{ s: string }>(`SELECT stock_actual::text AS s FROM products WHERE nombre = 'Yerba 1 kg'`),
      );
      expect(Number(stock.rows[0].s)).toBe(100000 - ids.size);
    } finally {
      await again.app.close();
      await again.db.close();
    }
  });

  it('restoring over existing data keeps it aside; a damaged file is refused and changes nothing', async () => {
    const copias = path.join(root, 'copias');
    const [latest] = listBackups(copias);
    const target = path.join(root, 'restaurado');
    const res = await restoreBackup(latest.file, target, new Date('2026-03-01T12:00:00Z'));
    expect(res.kept).toBe(path.join(target, 'postgres.antes-20260301-120000'));
    expect(existsSync(path.join(target, 'postgres', 'backup_label'))).toBe(true);

    const bad = path.join(root, 'dañada.tar.gz');
    writeFileSync(bad, 'esto no es una copia');
    const before = readdirSync(target).sort();
    await expect(restoreBackup(bad, target)).rejects.toThrow();
    expect(readdirSync(target).sort()).toEqual(before);
    await expect(restoreBackup(path.join(root, 'no-existe.tar.gz'), target)).rejects.toThrow(/No existe el archivo/);
  });

  it('keeps the newest N backups of the folder and nothing else is touched', () => {
    const folder = path.join(root, 'retencion');
    rmSync(folder, { recursive: true, force: true });
    const days = [1, 2, 3, 4, 5].map((d) => new Date(Date.UTC(2026, 0, d, 3)));
    mkdirSync(folder, { recursive: true });
    for (const d of days) writeFileSync(path.join(folder, backupName(d)), 'x');
    writeFileSync(path.join(folder, 'otra-cosa.txt'), 'x');
    const removed = pruneBackups(folder, 3);
    expect(removed.map((f) => path.basename(f)).sort()).toEqual([backupName(days[0]), backupName(days[1])].sort());
    expect(readdirSync(folder).sort()).toEqual(
      [backupName(days[2]), backupName(days[3]), backupName(days[4]), 'otra-cosa.txt'].sort(),
    );
    expect(listBackups(folder)[0].at).toEqual(days[4]);
  });
});
