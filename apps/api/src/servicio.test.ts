import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

interface Servicio {
  unitText(o: {
    root: string;
    node: string;
    port?: number;
    dataDir?: string;
    backupDir?: string;
    keep?: number;
  }): string;
  SERVICE: string;
}
const script = new URL('../../../scripts/servicio.mjs', import.meta.url);
const { unitText, SERVICE } = (await import(script.href)) as Servicio;
const root = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-servicio-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The unit's `[Section]` → key → values. */
function parse(text: string) {
  const out: Record<string, Record<string, string[]>> = {};
  let section = '';
  for (const line of text.split('\n')) {
    const s = /^\[(\w+)\]$/.exec(line);
    if (s) section = s[1];
    else if (line.includes('=')) {
      const [k, ...v] = line.split('=');
      ((out[section] ??= {})[k] ??= []).push(v.join('='));
    }
  }
  return out;
}

describe('npm run servicio:instalar (systemd)', () => {
  const unit = unitText({ root, node: process.execPath, dataDir: '/srv/mostrador datos', port: 8080, keep: 7 });
  const u = parse(unit);

  it('runs the built server as its own user, restarts on failure, logs to the journal, starts with the PC', () => {
    expect(SERVICE).toBe('mostrador');
    expect(u.Service.User).toEqual(['mostrador']);
    expect(u.Service.Group).toEqual(['mostrador']);
    expect(u.Service.ExecStart).toEqual([`${process.execPath} ${root}/apps/api/dist/main.js`]);
    expect(u.Service.WorkingDirectory).toEqual([root]);
    expect(u.Service.Restart).toEqual(['on-failure']);
    expect(u.Service.StandardOutput).toEqual(['journal']);
    expect(u.Service.StandardError).toEqual(['journal']);
    expect(u.Service.SyslogIdentifier).toEqual(['mostrador']);
    expect(u.Service.KillSignal).toEqual(['SIGTERM']); // Mostrador stops PostgreSQL cleanly on it
    expect(u.Service.Environment).toEqual([
      '"NODE_ENV=production"',
      '"PORT=8080"',
      '"HTTPS_PORT=3443"',
      '"DATA_DIR=/srv/mostrador datos"',
      '"BACKUP_DIR=/srv/mostrador datos/copias"',
      '"BACKUP_KEEP=7"',
      '"MOSTRADOR_MODO=local"',
    ]);
    expect(u.Unit.After).toEqual(['network-online.target']);
    expect(u.Install.WantedBy).toEqual(['multi-user.target']);
    expect(unit).not.toMatch(/^User=root$/m);
  });

  it('writes the unit with --archivo, and systemd-analyze verify accepts it where systemd is installed', () => {
    const file = path.join(dir, 'mostrador.service');
    const res = spawnSync(process.execPath, [fileURLToPath(script), '--archivo', file], {
      encoding: 'utf8',
      env: { ...process.env, PORT: '3000', DATA_DIR: 'data', BACKUP_DIR: '', BACKUP_KEEP: '14' },
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Unidad escrita en ${file}.`);
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(unitText({ root, node: process.execPath }));
    const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    if ((verify.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      // No systemd here: the content was checked above and below.
      expect(parse(written).Service.Restart).toEqual(['on-failure']);
    } else {
      expect(verify.status, verify.stderr).toBe(0);
      expect(verify.stderr).not.toMatch(/mostrador\.service:\d+:/);
    }
  });
});
