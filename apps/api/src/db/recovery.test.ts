import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { StartupError, startupMessage } from '../lib/startup-error.js';
import { connect, DEFAULT_TIMEOUTS } from './client.js';
import { describePostgresFailure, lockDataDir, startEmbedded } from './embedded.js';

const base = mkdtempSync(path.join(tmpdir(), 'mostrador-recovery-'));
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the API when its database goes away and comes back', () => {
  it('answers 503 while PostgreSQL is down and 200 again after it returns, without a restart', async () => {
    const dir = path.join(base, 'pg');
    let server = await startEmbedded(dir);
    const database = connect(server.url('postgres'), 3, DEFAULT_TIMEOUTS);
    const app = await buildApp({
      database,
      jwtSecret: 'secreto-de-pruebas-de-mostrador-0123456789abcdef',
      publicUrl: 'http://localhost:3000',
    });
    await app.ready();
    try {
      const health = () => app.inject({ method: 'GET', url: '/api/v1/health' });
      expect((await health()).statusCode).toBe(200);
      await server.stop();
      const down = await health();
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'error', detail: 'Base de datos no disponible.' });
      server = await startEmbedded(dir, () => {}, { port: server.port });
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await health()).statusCode;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      await app.close();
      await database.close();
      await server.stop();
    }
  }, 120_000);
});

describe('start failures say what happened and what to do, in Spanish', () => {
  const dir = '/srv/mostrador/data/postgres';

  it('reads the cause from what PostgreSQL wrote', () => {
    const full = describePostgresFailure('FATAL:  could not write lock file: No space left on device', dir);
    expect(full).toBeInstanceOf(StartupError);
    expect(full.message).toBe(
      `El disco está lleno: PostgreSQL no puede escribir en ${dir}. Liberá espacio y volvé a ejecutar npm start.`,
    );
    const perms = describePostgresFailure(`FATAL:  could not open file "${dir}/PG_VERSION": Permission denied`, dir);
    expect(perms.message).toMatch(/^PostgreSQL no tiene permiso para usar \/srv\/mostrador\/data\/postgres: revisá/);
    const lock = describePostgresFailure('FATAL:  lock file "postmaster.pid" already exists', dir);
    expect(lock.message).toMatch(/^Otro PostgreSQL está usando/);
    expect(describePostgresFailure('', dir).message).toBe('El PostgreSQL embebido no arrancó. Detalle: sin mensajes');
  });

  it('explains errors of the process itself, and never prints just "undefined"', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', syscall: 'listen' });
    expect(startupMessage(inUse, { port: 3000 })).toBe(
      'El puerto 3000 ya está en uso: otro programa (o Mostrador, abierto en otra ventana) lo está usando. Cerralo o elegí otro puerto, por ejemplo: PORT=3001 npm start',
    );
    const low = Object.assign(new Error('listen EACCES'), { code: 'EACCES', syscall: 'listen' });
    expect(startupMessage(low, { port: 80 })).toMatch(/^No hay permiso para escuchar en el puerto 80/);
    const denied = Object.assign(new Error('EACCES'), {
      code: 'EACCES',
      syscall: 'open',
      path: '/srv/datos/jwt-secret',
    });
    expect(startupMessage(denied)).toBe(
      'No hay permiso para escribir en /srv/datos/jwt-secret. Revisá los permisos de la carpeta o elegí otra con DATA_DIR.',
    );
    const full = Object.assign(new Error('ENOSPC'), { code: 'ENOSPC', syscall: 'write', path: '/srv/datos' });
    expect(startupMessage(full)).toBe('El disco está lleno: no se puede escribir en /srv/datos. Liberá espacio.');
    expect(startupMessage(undefined)).toBe('Mostrador no pudo arrancar: causa desconocida.');
    expect(startupMessage(new Error('Configuración inválida:\nPORT: x'))).toBe(
      'Mostrador no pudo arrancar: Configuración inválida:\nPORT: x.',
    );
  });
});

describe('the data directory lock (DATA_DIR/mostrador.pid)', () => {
  const stat = (pid: number) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  };

  it('refuses a directory held by a running process, and takes over one left by a process that is gone', () => {
    const dir = path.join(base, 'lock');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'mostrador.pid');
    // Held by a live process (this test's parent) with its own start time.
    writeFileSync(file, `${process.ppid} ${stat(process.ppid)}\n`);
    expect(() => lockDataDir(dir)).toThrow(`ya están en uso por otro Mostrador en marcha (proceso ${process.ppid})`);
    // The same PID with another start time: the PID was reused after a reboot, the lock is stale.
    writeFileSync(file, `${process.ppid} 1\n`);
    const unlock = lockDataDir(dir);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid} ${stat(process.pid)}\n`);
    unlock();
    expect(existsSync(file)).toBe(false);
    // A PID that no longer exists.
    writeFileSync(file, '999999999 5\n');
    lockDataDir(dir)();
    expect(existsSync(file)).toBe(false);
  });
});
