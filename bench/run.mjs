// Run every benchmark in bench/ (each prints ratios against a baseline measured in the same run).
import { spawnSync } from 'node:child_process';

const benches = [
  'bench/import.bench.mjs',
  'bench/reward.bench.mjs',
  'bench/diagnostics.bench.mjs',
  'bench/cli.bench.mjs',
  'bench/cli-lean.bench.mjs',
  'bench/python.bench.mjs',
  'bench/python-startup.bench.mjs',
  'bench/python-browser.bench.mjs',
  'bench/model.bench.mjs',
  'bench/tokenCount.bench.mjs',
  'bench/download.bench.mjs',
  'bench/merge.bench.mjs',
  'bench/steps.bench.mjs',
  'bench/steps-browser.bench.mjs',
  'bench/shaping.bench.mjs',
];
spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
for (const b of benches) {
  console.log(`\n▶ ${b}`);
  spawnSync('node', [b, ...process.argv.slice(2)], { stdio: 'inherit' });
}
// The same bench on the rows gzip-compressed: read as gzip against their inflated copy.
console.log('\n▶ bench/cli-lean.bench.mjs --gzip');
spawnSync('node', ['bench/cli-lean.bench.mjs', ...process.argv.slice(2), '--gzip'], { stdio: 'inherit' });
// Its own sizes (steps, rows per step): the row count given to the others does not apply.
console.log('\n▶ bench/steps-files.bench.mjs');
spawnSync('node', ['bench/steps-files.bench.mjs'], { stdio: 'inherit' });
