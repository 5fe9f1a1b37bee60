/**
 * `reward-studio`'s first steps: the arguments, then either the command itself or, by default, the same command
 * started again under Node's permission model (sandbox.ts). Kept light: a sandboxed run's launcher loads none of
 * the scoring code, which only the sandboxed process needs.
 */
import { fileURLToPath } from 'node:url';
import { isPythonReward, parseArgs, USAGE, type ParsedArgs, type ScoreOptions } from './args';
import { defaultPoolSize, earlyWorker } from '../engine/node';
import { dropIfCorrupted, ensureSnapshot, handedSnapshotRef } from '../engine/pyodideSnapshot';
import { dataOf, readDataFrom, readPathOf } from './dataFiles';
import { handedCopies, INFLATED_ENV, inflateData } from './inflateCopy';
import { checkOut, fail, type Io } from './io';
import { pieceCount } from './pieceCount';
import { runSandboxed, sandboxed } from './sandbox';

export async function main(argv: string[], workerUrl: URL, io: Io): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === 'help') {
    io.stdout(USAGE + '\n');
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(`reward-studio: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  // merge runs no reward code: nothing to sandbox.
  if (parsed.kind === 'merge') return (await import('./merge')).merge(parsed.paths, parsed.json, io);
  if (!parsed.options.allowAll && !sandboxed()) {
    // Checked here, outside the sandbox: the sandboxed run may not look at --out's folder.
    const bad = checkOut(parsed.options.out) ?? checkOut(parsed.options.savePartial);
    if (bad) return fail(io, bad);
    // Made here, where a temporary folder may be written: the sandboxed run only reads the copies.
    const copies = await inflated(parsed.options, io);
    try {
      // Made here, where the cache may be written: the sandboxed run may only read it. Its body is checked once that
      // run has started (its workers check it as well), on this otherwise idle process.
      const snapshot = parsed.options.rewardPaths.some(isPythonReward) ? await ensureSnapshot(process.env, undefined, undefined, 'header') : null;
      const run = runSandboxed(parsed.options, fileURLToPath(workerUrl), argv, snapshot, copies.copies);
      if (snapshot) dropIfCorrupted(snapshot);
      return await run;
    } catch (e) {
      return fail(io, e instanceof Error ? e.message : String(e));
    } finally {
      copies.dispose();
    }
  }
  const o = parsed.options;
  // The launcher's copies of gzip data files, handed over; with --allow-all, made here.
  if (sandboxed()) for (const [path, copy] of handedCopies(process.env[INFLATED_ENV])) readDataFrom(o, path, copy);
  const copies = sandboxed() ? null : await inflated(o, io);
  try {
    return await command(parsed, workerUrl, io);
  } finally {
    copies?.dispose();
  }
}

/** Plain copies of large gzip JSONL data (inflateCopy.ts), from now on read in their files' stead. */
async function inflated(o: ScoreOptions, io: Io): Promise<{ copies: [string, string][]; dispose(): void }> {
  const d = dataOf(o);
  if (!d.ok) return { copies: [], dispose: () => {} };
  const python = o.rewardPaths.some(isPythonReward);
  const made = await inflateData(d, { python, size: o.workers ?? defaultPoolSize(), workerMemoryMb: o.workerMemoryMb });
  if (made.note !== null) io.stderr(`reward-studio: note: ${made.note}\n`);
  for (const [path, copy] of made.copies) readDataFrom(o, path, copy.path);
  return { copies: made.copies.map(([p, c]) => [p, c.path]), dispose: () => made.copies.forEach(([, c]) => c.dispose()) };
}

async function command(parsed: Extract<ParsedArgs, { kind: 'score' | 'probe' }>, workerUrl: URL, io: Io): Promise<number> {
  if (parsed.kind === 'probe') {
    const { probe } = await import('./probe');
    return probe(parsed.options, parsed.probe, workerUrl, io);
  }
  // The first reward's workers start now and load their code while this process loads the scoring code: a TypeScript
  // reward's first worker; a Python reward's first workers (one per piece of the file: see pieceCount), from the
  // snapshot the launcher handed.
  const o = parsed.options;
  const handed = isPythonReward(o.rewardPaths[0]) && sandboxed() ? handedSnapshotRef() : null;
  // The data paths' listing is kept for the scoring code (dataOf reads it once per options object).
  const pythonFirst = () => Math.max(1, pieceCount(readPathOf(o), true, o.workers ?? defaultPoolSize(), o.workerMemoryMb));
  const early = o.rewardPaths.some(isPythonReward)
    ? handed && earlyWorker(workerUrl, o.workerMemoryMb, 'py', pythonFirst(), handed)
    : earlyWorker(workerUrl, o.workerMemoryMb);
  try {
    return await (await import('./score')).score(parsed.options, workerUrl, io, early ?? undefined);
  } finally {
    early?.release();
  }
}
