// npm start: builds when the build is missing or older than the sources, then runs the server
// (embedded PostgreSQL unless DATABASE_URL).
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildReason } from './build-state.mjs';

const root = new URL('..', import.meta.url);
const reason = buildReason(fileURLToPath(root));
if (reason) {
  console.log(reason);
  // `npm run build` ends by recording the hash of the sources it built (scripts/build-state.mjs).
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
await import(new URL('apps/api/dist/main.js', root).href);
