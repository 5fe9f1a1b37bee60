// Sum passed/failed over the JSON reports of vitest and Playwright and print one line "N passed, N failed".
// Each failed test is named just above that line (with the first line of its error), so that the end of a CI log,
// which may be all that is kept, still says what failed.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
/** "file › title: first line of the error", one per failed test. */
const failures = [];
// Colour codes (ESC [ … m) out of the first line.
const ESC = String.fromCharCode(27);
const firstLine = (text) =>
  String(text ?? '')
    .replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

/** Playwright nests suites (files, then describe blocks); specs hold the tests. */
function playwrightFailures(suite, file) {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status !== 'unexpected') continue;
      const last = t.results?.[t.results.length - 1];
      failures.push(`${spec.file ?? file}:${spec.line} › ${spec.title}: ${firstLine(last?.error?.message ?? last?.errors?.[0]?.message)}`);
    }
  }
  for (const s of suite.suites ?? []) playwrightFailures(s, suite.file ?? file);
}
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
    for (const f of r.testResults ?? []) {
      const name = String(f.name).replace(/^.*?\/(src|bench|e2e)\//, '$1/');
      for (const t of f.assertionResults ?? []) {
        if (t.status === 'failed') failures.push(`${name} › ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
      }
      // A file that failed outside its tests (an import error, a failing beforeAll with no test run).
      if (f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed')) failures.push(`${name}: ${firstLine(f.message)}`);
    }
  } else if (r.stats) {
    // Playwright
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped ?? 0;
    for (const suite of r.suites ?? []) playwrightFailures(suite, suite.file);
    for (const e of r.errors ?? []) failures.push(`playwright: ${firstLine(e.message)}`);
  }
}
// A suite that never produced its report (it crashed before running) counts as one failure.
failed += missing.length;
if (missing.length) console.error(`no report from: ${missing.join(', ')}`);
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
