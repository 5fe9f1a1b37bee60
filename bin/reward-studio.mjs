#!/usr/bin/env node
// `npx reward-studio score <data file> --reward <file.ts|file.js> …` (see `--help`).
// Runs the built CLI, dist-cli/reward-studio.mjs; builds it first when it is missing or older than one of its
// source files (so a fresh `npm ci` followed by `npx reward-studio` works, and edits to src/ are picked up).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE, buildCli, INPUTS, ROOT } from './build-cli.mjs';

function stale() {
  if (!existsSync(BUNDLE) || !existsSync(INPUTS)) return true;
  try {
    const builtAt = statSync(INPUTS).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(INPUTS, 'utf8'));
    return inputs.some((f) => {
      try {
        return statSync(join(ROOT, f)).mtimeMs > builtAt;
      } catch {
        return false; // sources not shipped (an installed package): the prebuilt bundle is the one to run
      }
    });
  } catch {
    return true;
  }
}

if (stale()) {
  try {
    await buildCli({ quiet: true });
  } catch (e) {
    process.stderr.write(`reward-studio: could not build the CLI (${e instanceof Error ? e.message : e}); try: npm run build:cli\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(BUNDLE).href);
