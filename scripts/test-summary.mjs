// Adds up the JSON reports of this run (Vitest and Playwright) and prints the closing line
// "N passed, N failed". Missing reports count as failures: a suite that did not run is not green.
import { existsSync, readFileSync } from 'node:fs';

const files = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const f of files) {
  if (!existsSync(f)) {
    console.log(`${f}: no se generó el reporte (la suite no llegó a correr)`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(f, 'utf8'));
  if ('numPassedTests' in r) {
    // Vitest
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.success === false && r.numFailedTests === 0 ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
    console.log(`${f}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  } else if (r.stats) {
    // Playwright
    const p = r.stats.expected + r.stats.flaky;
    const x = r.stats.unexpected + (r.errors?.length ?? 0);
    passed += p;
    failed += x;
    skipped += r.stats.skipped;
    console.log(`${f}: ${p} passed, ${x} failed`);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
