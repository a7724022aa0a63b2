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
    // Vitest's default on 2 cores is one worker (cores - 1): the files then wait on PostgreSQL one at a
    // time. Two keep both cores busy (docs/decisions/0043-suite-speed.md has the measurements).
    maxWorkers: 2,
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
          // The scale-out and failover tests need Debian packages (nginx, pgbouncer; patroni,
          // etcd-server, haproxy): .ci/run installs them and runs each on its own with
          // SCALE_OUT_TEST=1 / FAILOVER_TEST=1; a laptop's `npm test` leaves them out.
          exclude: [
            ...(process.env.SCALE_OUT_TEST === '1' ? [] : ['apps/api/src/scale-out.test.ts']),
            ...(process.env.FAILOVER_TEST === '1' ? [] : ['apps/api/src/failover.test.ts']),
          ],
          environment: 'node',
          globalSetup: ['apps/api/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // The files of a worker share their modules: the app's graph is loaded once per worker, not
          // once per file. Each file still gets its own database and app (test/app.ts); no file
          // mocks modules or keeps state in one.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
  },
});
