// npm start: builds what is missing, then runs the server (embedded PostgreSQL unless DATABASE_URL).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const built = ['packages/shared/dist/index.js', 'apps/api/dist/main.js', 'apps/web/dist/app.html'].every((f) =>
  existsSync(new URL(f, root)),
);
if (!built) {
  console.log('Compilando Mostrador por primera vez…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
await import(new URL('apps/api/dist/main.js', root).href);
