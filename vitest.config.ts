import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const shared = fileURLToPath(new URL('./packages/shared/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@mostrador\/shared\/(.*)$/,
        replacement: fileURLToPath(new URL('./packages/shared/src/$1.ts', import.meta.url)),
      },
      { find: /^@mostrador\/shared$/, replacement: shared },
      { find: /^@\//, replacement: fileURLToPath(new URL('./apps/web/src/', import.meta.url)) },
    ],
  },
  test: {
    // Machine-readable results for the CI summary (scripts/test-summary.mjs).
    reporters: ['default', ['json', { outputFile: process.env.VITEST_REPORT ?? '.reports/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts'],
          // The scale-out test needs nginx and pgbouncer (Debian packages): .ci/run installs them
          // and runs it on its own with SCALE_OUT_TEST=1; a laptop's `npm test` leaves it out.
          exclude: process.env.SCALE_OUT_TEST === '1' ? [] : ['apps/api/src/scale-out.test.ts'],
          environment: 'node',
          globalSetup: ['apps/api/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
  },
});
