// Sum passed/failed over the JSON reports of vitest and Playwright and print one line "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    missing.push(file);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in r) {
    // vitest (jest-compatible JSON)
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    // Playwright
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped ?? 0;
  }
}
// A suite that never produced its report (it crashed before running) counts as one failure.
failed += missing.length;
if (missing.length) console.error(`no report from: ${missing.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
