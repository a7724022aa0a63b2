import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { htmlPartials } from './build/html-partials.ts';
import { precompress } from './build/precompress.ts';
import { apiProxyTarget, pageRoutes } from './src/dev-server.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Multi-page build: the landing and legal pages are static HTML with no application code
 * (docs/decisions/0001-static-landing.md); app.html is the single-page application.
 */
export default defineConfig({
  plugins: [htmlPartials(here('./src/landing/partials')), tailwindcss(), pageRoutes(), precompress()],
  resolve: {
    alias: [
      // Pure rules are imported by subpath (e.g. '@mostrador/shared/permissions') so that the
      // shell does not pull zod and every schema into the first load.
      { find: /^@mostrador\/shared\/(.*)$/, replacement: here('../../packages/shared/src/$1.ts') },
      { find: /^@mostrador\/shared$/, replacement: here('../../packages/shared/src/index.ts') },
      { find: /^@\//, replacement: `${here('./src')}/` },
    ],
  },
  // The API of `npm run dev:api` listens on PORT (3000 unless set): the same variable here.
  server: { port: 5173, proxy: { '/api': apiProxyTarget(process.env) } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // lucide-react marks its modules "use client"; meaningless in a client-only build.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      input: {
        landing: here('./index.html'),
        politicas: here('./politicas.html'),
        terminos: here('./terminos.html'),
        cookies: here('./cookies.html'),
        app: here('./app.html'),
      },
    },
  },
});
