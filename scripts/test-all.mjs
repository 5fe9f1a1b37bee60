// `npm test`: type-check, lint, unit tests (vitest), production build, browser tests (Playwright on Debian's Chromium).
// Every step runs even if an earlier one failed, so one report shows everything; the exit code is non-zero if any failed.
import { spawnSync } from 'node:child_process';

const steps = [
  ['type-check', 'npx', ['tsc', '--noEmit']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['unit tests', 'npx', ['vitest', 'run']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['browser tests', 'npx', ['playwright', 'test']],
];
const failed = [];
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) failed.push(name);
  if (name === 'build' && r.status !== 0) break; // browser tests need the build
}
console.log(failed.length ? `\nfailed steps: ${failed.join(', ')}` : '\nall steps passed');
process.exit(failed.length ? 1 : 0);
