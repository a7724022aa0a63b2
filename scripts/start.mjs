// npm start: installs the dependencies when they are not package-lock.json's (npm ci), builds
// when the build is missing or older than the sources, then runs the server (embedded PostgreSQL
// unless DATABASE_URL).
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildReason, dependenciesReason } from './build-state.mjs';

const root = new URL('..', import.meta.url);
const install = dependenciesReason(fileURLToPath(root));
if (install) {
  console.log(install);
  try {
    execSync('npm ci', { cwd: root, stdio: 'inherit' });
  } catch {
    console.error(
      'No se pudieron instalar las dependencias: revisá el error de npm de arriba (¿hay conexión a internet?) y corré npm ci.',
    );
    process.exit(1);
  }
}
const reason = buildReason(fileURLToPath(root));
if (reason) {
  console.log(reason);
  // `npm run build` ends by recording the hash of the sources it built (scripts/build-state.mjs).
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
// Run in the shop on the embedded database: no hosted-service trial or plans (decision 0055).
// MOSTRADOR_MODO=saas (or a DATABASE_URL) keeps them.
if (!process.env.MOSTRADOR_MODO && !process.env.DATABASE_URL) process.env.MOSTRADOR_MODO = 'local';
// In the shop, HTTPS on the LAN beside plain HTTP (port 3443; HTTPS_PORT=no turns it off), so
// tablets that trust Mostrador's CA (/certificado) reopen the POS offline (decision 0055).
if (process.env.MOSTRADOR_MODO === 'local' && process.env.HTTPS_PORT === undefined) process.env.HTTPS_PORT = '3443';
await import(new URL('apps/api/dist/main.js', root).href);
