// npm run servicio:instalar (Linux, as root): Mostrador as a systemd service that starts with the
// PC, runs as its own user "mostrador", restarts on failure and logs to the journal (decision 0055).
//   --archivo <ruta>   only write the unit there (to check it), install nothing
//   PORT, HTTPS_PORT (3443 by default, `no` for none), DATA_DIR, BACKUP_DIR, BACKUP_KEEP from the
//   environment go into the unit.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReason } from './build-state.mjs';

export const SERVICE = 'mostrador';
export const UNIT_PATH = `/etc/systemd/system/${SERVICE}.service`;

/** systemd quotes a value with spaces in Environment= with double quotes. */
const env = (k, v) => `Environment="${k}=${String(v).replace(/(["\\])/g, '\\$1')}"`;

/** The unit's text for the repository at `root`. */
export function unitText({
  root,
  node,
  user = SERVICE,
  port = 3000,
  httpsPort = '3443',
  dataDir,
  backupDir,
  keep = 14,
}) {
  const data = dataDir ?? path.join(root, 'data');
  const copias = backupDir ?? path.join(data, 'copias');
  return `[Unit]
Description=Mostrador, sistema de gestión del negocio
Documentation=file://${path.join(root, 'README.md')}
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${user}
Group=${user}
WorkingDirectory=${root}
${env('NODE_ENV', 'production')}
${env('PORT', port)}
${env('HTTPS_PORT', httpsPort)}
${env('DATA_DIR', data)}
${env('BACKUP_DIR', copias)}
${env('BACKUP_KEEP', keep)}
${env('MOSTRADOR_MODO', 'local')}
ExecStart=${node} ${path.join(root, 'apps/api/dist/main.js')}
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec=60
StandardOutput=journal
StandardError=journal
SyslogIdentifier=${SERVICE}
NoNewPrivileges=true
PrivateTmp=true

[Install]
WantedBy=multi-user.target
`;
}

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: 'inherit' });
}

function install() {
  const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  const args = process.argv.slice(2);
  const fileArg = args.indexOf('--archivo');
  const opts = {
    root,
    node: process.execPath,
    port: Number(process.env.PORT ?? 3000),
    httpsPort: process.env.HTTPS_PORT ?? '3443',
    dataDir: path.resolve(root, process.env.DATA_DIR ?? 'data'),
    backupDir: process.env.BACKUP_DIR ? path.resolve(root, process.env.BACKUP_DIR) : undefined,
    keep: Number(process.env.BACKUP_KEEP ?? 14),
  };
  if (fileArg !== -1) {
    writeFileSync(args[fileArg + 1], unitText(opts));
    console.log(`Unidad escrita en ${args[fileArg + 1]}.`);
    return;
  }
  if (process.platform !== 'linux') {
    console.error('npm run servicio:instalar es para Linux con systemd. En Windows seguí los pasos del README.');
    process.exit(1);
  }
  if (process.getuid?.() !== 0) {
    console.error('Ejecutalo como administrador: sudo npm run servicio:instalar');
    process.exit(1);
  }
  if (!existsSync('/run/systemd/system')) {
    console.error('Esta PC no usa systemd: arrancá Mostrador con npm start (ver el README).');
    process.exit(1);
  }
  if (buildReason(root)) execSync('npm run build', { cwd: root, stdio: 'inherit' });
  try {
    execFileSync('id', ['-u', SERVICE], { stdio: 'ignore' });
  } catch {
    run('useradd', ['--system', '--user-group', '--home-dir', opts.dataDir, '--shell', '/usr/sbin/nologin', SERVICE]);
  }
  const backupDir = opts.backupDir ?? path.join(opts.dataDir, 'copias');
  mkdirSync(backupDir, { recursive: true });
  // The data (also those PostgreSQL wrote as "postgres" under npm start as root) become the service's.
  run('chown', ['-R', `${SERVICE}:${SERVICE}`, opts.dataDir, backupDir]);
  writeFileSync(UNIT_PATH, unitText(opts));
  run('systemctl', ['daemon-reload']);
  run('systemctl', ['enable', '--now', SERVICE]);
  console.log(
    `Listo: Mostrador corre como servicio y arranca con la PC.\n` +
      `  Estado:    systemctl status ${SERVICE}\n` +
      `  Registro:  journalctl -u ${SERVICE} -f\n` +
      `  Detener:   systemctl stop ${SERVICE}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) install();
