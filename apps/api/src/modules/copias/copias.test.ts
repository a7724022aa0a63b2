import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupName } from '../../db/backup.js';
import { scheduleBackups } from '../../db/backup-schedule.js';
import { createTestApp, siblingApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';

const folder = mkdtempSync(path.join(tmpdir(), 'mostrador-copias-'));
let clock = new Date('2026-03-01T12:00:00Z');
let failing = false;
let made = 0;
const schedule = scheduleBackups({
  folder,
  keep: 2,
  now: () => clock,
  firstAfterMs: 3_600_000,
  backup: async () => {
    if (failing) throw new Error('El disco está lleno.');
    made++;
    writeFileSync(path.join(folder, backupName(clock)), 'copia');
  },
});
const ctx = await createTestApp({ backups: schedule });
const { app } = ctx;
const url = (id: string) => `/api/v1/businesses/${id}/copia-de-seguridad`;

describe('the daily backup', () => {
  it('makes one when the newest is a day old, keeps the newest N, and tells a failure until one succeeds', async () => {
    expect(schedule.status()).toEqual({ carpeta: folder, ultima: null, error: null });
    await schedule.check();
    expect(made).toBe(1);
    clock = new Date('2026-03-02T11:59:00Z'); // 23:59 later: not yet
    await schedule.check();
    expect(made).toBe(1);
    clock = new Date('2026-03-02T12:00:00Z');
    await schedule.check();
    clock = new Date('2026-03-03T12:30:00Z');
    await schedule.check();
    expect(made).toBe(3);
    expect(readdirSync(folder).sort()).toEqual([
      backupName(new Date('2026-03-02T12:00:00Z')),
      backupName(new Date('2026-03-03T12:30:00Z')),
    ]);
    failing = true;
    clock = new Date('2026-03-04T13:00:00Z');
    await schedule.check();
    expect(schedule.status()).toEqual({
      carpeta: folder,
      ultima: new Date('2026-03-03T12:30:00Z'),
      error: 'El disco está lleno.',
    });
    failing = false;
    await schedule.check();
    expect(schedule.status().error).toBeNull();
    expect(schedule.status().ultima).toEqual(new Date('2026-03-04T13:00:00Z'));
  });

  it('shows the date of the last good backup to the business admins only', async () => {
    const owner = await registerUser(app, 'Duena');
    const id = await createBusiness(app, owner);
    const res = await app.inject({ method: 'GET', url: url(id), headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      activas: true,
      ultima_copia: schedule.status().ultima!.toISOString(),
      carpeta: folder,
      error: null,
    });

    const employee = await registerUser(app, 'Cajero');
    await addMember(ctx, id, owner, employee, ['puede_ver_ventas']);
    const refused = await app.inject({ method: 'GET', url: url(id), headers: employee.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ADMIN_REQUIRED');

    const stranger = await registerUser(app, 'Ajena');
    await createBusiness(app, stranger, 'Otro negocio');
    expect((await app.inject({ method: 'GET', url: url(id), headers: stranger.auth })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: url(id) })).statusCode).toBe(401);
  });

  it('on a server without the embedded database there is no daily backup', async () => {
    const other = await siblingApp(ctx);
    const owner = await registerUser(other, 'Nube');
    const id = await createBusiness(other, owner);
    const res = await other.inject({ method: 'GET', url: url(id), headers: owner.auth });
    expect(res.json()).toEqual({ activas: false, ultima_copia: null, carpeta: null, error: null });
  });
});
