import { bytesOf, type Dataset } from '../core/dataset/dataset';
import type { ColumnMapping, FormatId } from '../core/formats/types';
import { pickRewardFunction } from '../core/python/choose';
import { exportReward, type ExportTarget } from '../core/python/exportReward';
import { summarizeRun } from '../core/reward/summary';
import { useStudio } from '../store';
import { forgetDataset, getDataset, registerDataset } from '../runtime/datasetRegistry';
import { adoptImport, startImport, type ImportJob, type ImportPart } from '../runtime/importClient';
import { defaultPoolSize } from '../engine/browser';
import type { RunHandle, RunOptions, RunProgress } from '../engine/engine';
import { RewardSandbox, type SandboxPool } from '../engine/frameClient';
import type { PythonCall } from '../engine/protocol';
import type { WeightedFunction } from '../core/reward/weighted';
import type { RewardCandidate } from '../core/python/signatures';
import type { RunRecord } from '../store/runsSlice';
import { awaitsRun, releaseLanguage, type DataSource } from '../store/sessionSlice';
import { sha256Hex } from '../runtime/hash';
import { modelColumns } from './models';

import type { createStudioStore } from '../store';

type StudioStore = ReturnType<typeof createStudioStore>;

export interface ImportOpts {
  format?: FormatId;
  mapping?: ColumnMapping;
  /** Where the file came from (default: a file the user gave). */
  source?: DataSource;
  /** Score the rows with the editor's code once loaded (default true; never while the code came from elsewhere: see autoRun). */
  run?: boolean;
  /** A saved session's own data coming back: the session's data version stays as it was. */
  restoring?: boolean;
  /** A dataset of several files in reading order (importFiles); the blob and name given are then its first file and its name. */
  parts?: readonly ImportPart[];
}

/** How long a TypeScript run goes before the page shows it running (see runReward). */
const PROGRESS_AFTER_MS = 150;
/** Import progress (bytes, rows, issues) is shown at most this often. */
const PROGRESS_EVERY_MS = 100;

/** The engine's view of a dataset: its file, how it was imported, and where each row's line is (plain JSONL). */
function engineDataset(ds: Dataset) {
  const index = ds.spans ? { spans: ds.spans, lines: ds.lines } : undefined;
  // One Parquet file: workers read the rows of their tasks by the file's row numbers (engine/workerRows.ts).
  const records = !ds.spans && !ds.parts && ds.detection.container === 'parquet' ? ds.lines : undefined;
  // Several files: each part with its own rows' lines (sliced: a view would post the whole array once per part).
  const parts = ds.parts
    ?.filter((p) => p.rows > 0)
    .map((p) => ({
      blob: bytesOf(p),
      name: p.name,
      step: p.step,
      rows: p.rows,
      index: p.spans ? { spans: p.spans, lines: ds.lines.slice(p.first, p.first + p.rows) } : undefined,
    }));
  return {
    size: ds.size,
    file: { datasetId: ds.id, blob: bytesOf(ds), name: ds.name, format: ds.detection.format, mapping: ds.mapping, index, records, ...(parts ? { parts } : {}) },
  };
}

/** The studio's actions (import a file, run the reward, cancel) over one store; created once, below. */
export class Studio {
  /** Reward code runs in a sandbox of opaque origin (src/engine/frameClient.ts), started the first time it is needed. */
  private sandbox: RewardSandbox | null = null;
  /** Python workers (one Pyodide each) start the first time Python runs: loading takes seconds and ~30 MB each. */
  private pyStarted = false;
  private importJob: ImportJob | null = null;
  private runHandle: RunHandle | null = null;
  /** The Python run waiting for its scan: a newer run or Cancel replaces it. */
  private runToken: object | null = null;
  private nextRun = 1;
  /** Reward objects a Python run found once the module ran (built by imported code), for that code. */
  private foundWhenRun: { code: string; found: RewardCandidate[] } | null = null;

  /** The parse's candidates with the reward objects the last run of this very code found once its module ran. */
  private withFoundFor(code: string, scanned: readonly RewardCandidate[]): RewardCandidate[] {
    return withFound(scanned, this.foundWhenRun?.code === code ? this.foundWhenRun.found : []);
  }
  /** The next runReward was started by the studio (autoRun), not by Run: the run says so. */
  private autoNext = false;
  /** The last file imported, kept so the user can re-import it as another format or with a column mapping. */
  private lastSource: { blob: Blob; name: string; parts?: readonly ImportPart[] } | null = null;
  /** The file behind the loaded dataset and how it was read: saved with the session, carried by share links. */
  private dataFile: { blob: Blob; name: string; format?: FormatId; mapping?: ColumnMapping; parts?: readonly ImportPart[] } | null = null;

  /**
   * Called once a file the user gave has been read, before it replaces the loaded data: the sessions module starts a
   * new session for it there (app/sessions/fileSession.ts), so the runs stay with the data they ran on.
   */
  private onNewFile: ((name: string) => void) | null = null;

  /** The Python pool has been told the code is being edited since its last run (`prepareEdit`, once per run). */
  private editHinted = false;

  constructor(private readonly store: StudioStore) {
    // Other Python code will need fresh interpreters (docs/engine.md): they start while the user edits, not after every run.
    store.subscribe((s, prev) => {
      if (s.code === prev.code || s.language !== 'py' || !this.pyStarted || this.editHinted) return;
      this.editHinted = true;
      this.pythonPool().prepareEdit();
    });
  }

  setNewFileHandler = (f: ((name: string) => void) | null): void => {
    this.onNewFile = f;
  };

  /** A reward worker sent something outside the protocol: it was dropped; the user hears of it. */
  private reportProtocolError = (message: string): void => {
    console.warn(message);
    this.store.getState().setSessionMessage({ kind: 'error', text: `${message[0].toUpperCase()}${message.slice(1)}.` });
  };

  private engines = (): RewardSandbox => {
    this.sandbox ??= new RewardSandbox({
      src: `${import.meta.env.BASE_URL}sandbox.html`,
      size: defaultPoolSize(),
      onProtocolError: this.reportProtocolError,
    });
    return this.sandbox;
  };

  private rewardPool = (): SandboxPool => this.engines().pool('ts');

  private pythonPool = (): SandboxPool => {
    const pool = this.engines().pool('py');
    if (!this.pyStarted) {
      this.pyStarted = true;
      const ds = getDataset(this.store.getState().datasetId);
      if (ds) pool.setDataset(engineDataset(ds));
    }
    return pool;
  };

  /** The pool that runs rewards written in `language`. */
  private poolFor = (language: 'ts' | 'py'): SandboxPool => {
    return language === 'py' ? this.pythonPool() : this.rewardPool();
  };

  /**
   * Start the workers of `language` on the loaded dataset as soon as the user picks it, before the first Run: Python
   * workers take seconds to load Pyodide, and every worker reads the file (the whole of it unless it is plain JSONL).
   */
  warmLanguage = (language: 'ts' | 'py'): void => {
    const ds = getDataset(this.store.getState().datasetId);
    const p = this.poolFor(language);
    if (ds) p.setDataset(engineDataset(ds));
  };

  /** How a stress test calls `run`'s Python function (found again in its code, as Run found it), or why it cannot. */
  probeCall = async (run: RunRecord): Promise<{ ok: true; python?: PythonCall } | { ok: false; message: string }> => {
    if (run.language !== 'py') return { ok: true };
    const scan = await this.pythonPool().check(run.code);
    if (!scan.ok) return { ok: false, message: scan.message };
    const batchSize = this.store.getState().pyBatchSize;
    const candidates = this.withFoundFor(run.code, scan.candidates);
    const pick = pickRewardFunction(candidates, run.pyFunction ?? null);
    // A reward object only the module's run shows: the worker finds it again, by the name the run used.
    if (!pick) return { ok: true, python: { name: run.pyFunction ?? '', kind: 'trl', batchSize, whenRun: true } };
    if (pick.problem !== undefined) return { ok: false, message: pick.problem };
    const python: PythonCall = { name: pick.name, kind: pick.kind, batchSize };
    if (pick.functions) python.functions = pick.functions.map(({ name, weight }) => ({ name, weight }));
    return { ok: true, python };
  };

  /** One probe of a stress test (src/app/stressTest.ts) with `run`'s code, in the run's pool: a Run meanwhile cancels it. */
  /** `models`: the probed texts' scores by position (stressTest.ts), for a reward that reads them. */
  probeRun = (
    run: RunRecord,
    python: PythonCall | undefined,
    probe: NonNullable<RunOptions['probe']>,
    onProgress: (p: RunProgress) => void,
    models?: Record<string, Float64Array>,
  ): RunHandle => {
    const s = this.store.getState();
    const tokenizer = /\btokenCount\b/.test(run.code) ? s.tokenizer : undefined;
    return this.poolFor(run.language).run(run.code, { python, timeLimitMs: s.timeLimitMs, tokenizer, probe, onProgress, ...(models ? { models } : {}) });
  };

  lastImportedSource = (): { blob: Blob; name: string; parts?: readonly ImportPart[] } | null => {
    return this.lastSource;
  };

  currentDataFile = (): { blob: Blob; name: string; format?: FormatId; mapping?: ColumnMapping; parts?: readonly ImportPart[] } | null => {
    return this.dataFile;
  };

  /**
   * Import a file. On failure the previous dataset stays loaded and the error is shown. While an opened link waits
   * for its file, a file given by the user is first checked against the link's SHA-256.
   */
  importBlob = async (blob: Blob, name: string, opts: ImportOpts = {}): Promise<boolean> => {
    const store = this.store.getState();
    const pending = store.pendingFile;
    if (pending && !opts.source && !opts.restoring) {
      const sha = await sha256Hex(blob);
      if (sha !== pending.sha256) {
        store.setSessionMessage({
          kind: 'error',
          text: `${name} is not the file this link was made with: its SHA-256 is ${sha.slice(0, 12)}…, the link expects ${pending.sha256.slice(0, 12)}… (${pending.name}, ${pending.rows.toLocaleString('en-US')} rows). Nothing was loaded.`,
        });
        return false;
      }
      opts = { ...opts, format: pending.format as FormatId | undefined, mapping: pending.mapping as ColumnMapping | undefined };
      store.setSessionMessage({ kind: 'info', text: `${name} matches the link (SHA-256 checked).` });
    }
    this.importJob?.cancel();
    store.setImportError(null);
    const totalBytes = opts.parts ? opts.parts.reduce((n, p) => n + p.blob.size, 0) : blob.size;
    store.setImporting({ fileName: name, bytesRead: 0, totalBytes, rows: 0, issues: 0 });
    performance.mark('import:start');
    // Progress is shown at most every PROGRESS_EVERY_MS: each update re-renders and repaints the page, on the cores
    // the import's workers need.
    let shownAt = performance.now();
    const { parts: asked, ...importOpts } = opts;
    let parts = asked;
    let partShown = -1;
    let decompressingShown = false;
    /** Several files: the first step's dataset, shown while the others load (set from the import's callback). */
    const shown: { first: Dataset | null } = { first: null };
    const job = startImport(
      blob,
      name,
      { format: importOpts.format, mapping: importOpts.mapping },
      (p) => {
        // A new file of several is always shown ("step 3 of 50"), and so is the start and end of a gzip file's
        // decompression; other progress at most every PROGRESS_EVERY_MS.
        const decompressing = p.decompressing === true;
        const news = (p.part !== undefined && p.part.index !== partShown) || decompressing !== decompressingShown;
        if (this.importJob !== job || (!news && performance.now() - shownAt < PROGRESS_EVERY_MS)) return;
        shownAt = performance.now();
        partShown = p.part?.index ?? -1;
        decompressingShown = decompressing;
        this.store.getState().setImporting({ fileName: name, ...p });
      },
      parts,
      (first) => {
        // Several files: the first step's rows are shown and scored while the others load.
        if (this.importJob !== job) return;
        shown.first = first;
        commit();
        this.adoptDataset(first);
        // Read by bench/steps.bench.mjs: the first step is on screen.
        performance.measure('import-first-step', 'import:start');
        if (opts.run !== false) void this.autoRun();
      },
    );
    this.importJob = job;
    let committed = false;
    /** The new data takes the place of the old (once: at its first step for several files, else here). */
    const commit = () => {
      if (committed) return;
      committed = true;
      // Another file than the session's own (not its data coming back, not a link's, not the same file read again as
      // another format): a new session, while the old one, still whole, is saved as it was.
      const another =
        !opts.source &&
        !opts.restoring &&
        !pending &&
        this.store.getState().datasetId !== null &&
        (blob !== this.dataFile?.blob || parts !== this.dataFile.parts);
      if (another) this.onNewFile?.(name);
      this.lastSource = { blob, name, parts };
      this.dataFile = { blob, name, format: opts.format, mapping: opts.mapping, parts };
      if (pending && this.store.getState().pendingFile === pending) this.store.getState().setPendingFile(null);
      this.store.getState().setDataSource(opts.source ?? { kind: 'file' }, !opts.restoring);
    };
    let res = await job.done;
    if (this.importJob !== job) return false; // superseded by a newer import
    this.importJob = null;
    this.store.getState().setImporting(null);
    const shownFirst = shown.first;
    if (!res.ok && shownFirst && parts) {
      // Cancelled (or failed) after the first step was shown: it stays, as a dataset of the files read.
      if (res.error.code !== 'cancelled') this.store.getState().setImportError({ ...res.error, fileName: name });
      const kept = shownFirst.parts?.map((p) => p.name) ?? [];
      parts = parts.filter((p) => kept.includes(p.name));
      if (this.dataFile) this.dataFile = { ...this.dataFile, parts };
      if (this.lastSource) this.lastSource = { ...this.lastSource, parts };
      res = { ok: true, value: shownFirst };
    }
    if (!res.ok) {
      if (res.error.code !== 'cancelled') this.store.getState().setImportError({ ...res.error, fileName: name });
      if (res.error.code === 'needs-mapping') this.lastSource = { blob, name, parts };
      return false;
    }
    commit();
    this.adoptDataset(res.value);
    // User Timing marks: visible in DevTools and read by bench/import.bench.mjs.
    performance.measure('import', 'import:start');
    // The reward run starts in a task of its own: the page first draws the new data, and the main thread is not held
    // by the end of the import, the first render and the run's start in one long task.
    if (opts.run !== false) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await this.autoRun();
    }
    return true;
  };

  /**
   * Every run the studio starts on its own (an import, a session put in place) goes through here: it runs the editor's
   * code only if that code is the user's. Code that came from a link or a session file waits for Run (runReward),
   * whatever happens before (DESIGN.md, safety model). A held run leaves the User Timing mark `reward-run:held` where
   * it would have started (DevTools and the browser tests see it).
   */
  autoRun = async (): Promise<void> => {
    const s = this.store.getState();
    if (awaitsRun(s.origin, s.language)) {
      performance.mark('reward-run:held');
      return;
    }
    this.autoNext = true;
    await this.runReward();
  };

  cancelImport = (): void => {
    this.importJob?.cancel();
  };

  private adoptDataset = (ds: Dataset): void => {
    // The data worker keeps only the shown dataset's trajectories: the previous one goes from the registry too.
    const previous = this.store.getState().datasetId;
    if (previous) forgetDataset(previous);
    registerDataset(ds);
    adoptImport(ds.key);
    // Every pool takes the new dataset now (a run needs it). Only the workers of the language in use start reading it
    // at once, and in a task of their own, after the page has taken in the import: their messages carry the rows' line
    // spans, a copy per worker. The others read it when they next run. (When every worker parsed the whole file, both
    // pools reading meant four workers on two cores, and the first Python run after an import of 100,000 rows waited
    // for all four: bench/README.md.)
    this.rewardPool().setDataset(engineDataset(ds), false);
    if (this.pyStarted) this.pythonPool().setDataset(engineDataset(ds), false);
    setTimeout(() => {
      const st = this.store.getState();
      if (st.datasetId === ds.id) this.warmLanguage(st.language);
    }, 0);
    const s = this.store.getState();
    s.selectRow(null);
    s.setGroupFilter(null);
    s.setSubset(null);
    s.setDataset({ id: ds.id, name: ds.name, rowCount: ds.size, groupCount: ds.groupKeys.length, detection: ds.detection, issues: ds.issues });
  };

  /**
   * The user pressed Run: run the editor's code on every row of the loaded dataset. A new run supersedes one in flight.
   * Nothing but the Run button (and its shortcut) calls this; runs that start on their own go through autoRun.
   */
  runReward = async (): Promise<void> => {
    const s = this.store.getState();
    const ds = getDataset(s.datasetId);
    if (!ds) return;
    const code = s.code;
    const language = s.language;
    const auto = this.autoNext;
    this.autoNext = false;
    // The user pressed Run: the code of this language from a link or a file is now theirs to run (not the other's).
    if (s.origin) s.setOrigin(releaseLanguage(s.origin, language));
    this.runHandle?.cancel();
    this.runToken = null;
    const startedAt = Date.now();
    performance.mark('reward-run:start');
    let python: PythonCall | undefined;
    let functions: WeightedFunction[] | undefined;
    if (language === 'py') {
      this.editHinted = false;
      // Python: find the reward functions the code defines (parsed, not run), keep the user's pick or take the first.
      s.setRunError(null);
      s.setRunning({ done: 0, total: ds.size, rowsPerSecond: 0 });
      const token = (this.runToken = {});
      const scan = await this.pythonPool().check(code);
      if (this.runToken !== token) return;
      const st = this.store.getState();
      if (!scan.ok) {
        st.setRunning(null);
        st.setRunError({ message: scan.message, line: scan.line, compile: true });
        return;
      }
      // With what the last run of this code found once the module ran (never the default while the parse finds one).
      const candidates = this.withFoundFor(code, scan.candidates);
      st.setPyCandidates(candidates);
      const pick = pickRewardFunction(candidates, st.pyFunction);
      if (!pick) {
        // Nothing the parse can see: a reward object built by imported code shows only once the module has run.
        python = { name: '', kind: 'trl', batchSize: st.pyBatchSize, whenRun: true };
      } else if (pick.problem !== undefined) {
        // A reward_funcs list TRL would refuse (GRPOTrainer raises ValueError): say why instead of running.
        st.setRunning(null);
        st.setRunError({ message: `${pick.name}: ${pick.problem}`, compile: true });
        return;
      }
      if (pick) {
        python = { name: pick.name, kind: pick.kind, batchSize: st.pyBatchSize };
        if (pick.functions) python.functions = pick.functions.map(({ name, weight }) => ({ name, weight }));
        functions = python.functions;
      }
    } else if (/\breward_?[fF]uncs\b/.test(code)) {
      // TypeScript that may list several functions (`export const rewardFuncs`): the worker compiles it and says which.
      const token = (this.runToken = {});
      const scan = await this.rewardPool().check(code);
      if (this.runToken !== token) return;
      if (!scan.ok) {
        this.store.getState().setRunError({ message: scan.message, line: scan.line, compile: true });
        return;
      }
      functions = scan.functions;
    }
    let handle: RunHandle | null = null;
    let lastProgress = Number.NEGATIVE_INFINITY;
    // A TypeScript run often ends within a tenth of a second: the page shows it running (Cancel, the progress bar) only
    // once it has lasted PROGRESS_AFTER_MS, so a short run does not re-render and repaint the page while the workers
    // need the cores. (Python shows its state at once: loading the interpreter takes seconds.)
    let shown = language === 'py';
    let latest: RunProgress = { done: 0, total: ds.size, rowsPerSecond: 0 };
    const show = (p: RunProgress) => {
      if (handle === null || this.runHandle === handle) this.store.getState().setRunning(p);
    };
    const reveal = shown
      ? undefined
      : setTimeout(() => {
          shown = true;
          lastProgress = performance.now();
          show(latest);
        }, PROGRESS_AFTER_MS);
    handle = this.poolFor(language).run(code, {
      python,
      timeLimitMs: s.timeLimitMs,
      // Tokenizer files are 2–11 MB: the workers load one only for code that counts tokens, or (Python) for a TRL
      // function that reads completion_ids, which the Python worker finds out itself.
      tokenizer: language === 'py' || /\btokenCount\b/.test(code) ? s.tokenizer : undefined,
      // Reward-model scores travel only to code that reads them (ctx.models; Python: model_scores, rollout_reward_scores).
      models: /\bmodels\b|model_scores|rollout_reward_scores/.test(code) ? modelColumns(ds.id) : undefined,
      // The first progress report arrives before run() returns; only the latest run may report. At most ten
      // updates a second reach React: the pool reports after every task.
      onProgress: (p) => {
        latest = p;
        const now = performance.now();
        if (!shown || (now - lastProgress < 100 && p.done < p.total)) return;
        lastProgress = now;
        show(p);
      },
    });
    this.runHandle = handle;
    // The workers had their tasks before the page re-rendered (run() reports its first progress after dispatching).
    s.setRunError(null);
    const outcome = await handle.done;
    clearTimeout(reveal);
    if (this.runHandle !== handle) return;
    this.runHandle = null;
    const st = this.store.getState();
    st.setRunning(null);
    if (outcome.kind === 'load-failed') {
      st.setRunError({ message: `a reward worker could not read ${ds.name}: ${outcome.message}`, compile: false });
      return;
    }
    if (outcome.kind === 'compile-error' || outcome.kind === 'failed') {
      const none = python?.whenRun && /^no reward function found/.test(outcome.message);
      st.setRunError({
        message: none
          ? 'no reward function found: define a verl compute_score(data_source, solution_str, ground_truth, extra_info=None), a TRL reward f(completions, **kwargs), or an OpenRLHF reward_func(queries, prompts, labels), or bind a top-level name to such a reward object'
          : outcome.message,
        line: outcome.kind === 'compile-error' ? outcome.line : undefined,
        compile: outcome.kind === 'compile-error',
      });
      return;
    }
    const { result } = outcome;
    if (language === 'py' && result.found) {
      this.foundWhenRun = { code, found: result.found };
      st.setPyCandidates(withFound(st.pyCandidates ?? [], result.found));
    }
    // The run called the first object found: the record names it.
    const first = python?.whenRun ? result.found?.[0] : undefined;
    if (python && first) python = { name: first.name, kind: first.kind, batchSize: python.batchSize };
    // User Timing: the pool's time for the run, visible in DevTools and read by bench/reward.bench.mjs.
    performance.measure('reward-run', 'reward-run:start');
    st.addRun({
      id: this.nextRun++,
      code,
      language,
      pyFunction: python?.name,
      ...(functions ? { functions } : {}),
      datasetId: ds.id,
      startedAt,
      elapsedMs: outcome.elapsedMs,
      cancelled: outcome.kind === 'cancelled',
      summary: summarizeRun(result.scores, result.status),
      result,
      ...(auto ? { auto } : {}),
    });
  };

  /**
   * The Python code as it is now, exported for a trainer: its functions are found again first, so an edit made since
   * the last Run (a renamed or new function) is what the file calls.
   */
  exportPython = async (target: ExportTarget): Promise<{ ok: true; text: string } | { ok: false; message: string }> => {
    const code = this.store.getState().code;
    const scan = await this.pythonPool().check(code);
    if (!scan.ok) return { ok: false, message: `the code does not compile: ${scan.message}` };
    const st = this.store.getState();
    if (st.code !== code) return { ok: false, message: 'the code changed while it was read: export again' };
    // With what the last run of this code found once the module ran: a reward object built by imported code.
    const candidates = this.withFoundFor(code, scan.candidates);
    st.setPyCandidates(candidates);
    const pick = pickRewardFunction(candidates, st.pyFunction);
    if (!pick)
      return { ok: false, message: 'no reward function found to export (a reward object built by imported code is found when the code runs: press Run first)' };
    try {
      return { ok: true, text: exportReward(code, pick, target, 'reward.py', st.shaping).text };
    } catch (e) {
      // A Shaping list the target cannot carry (core/shaping/exportPython.ts says why).
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  };

  cancelRun = (): void => {
    this.runToken = null;
    this.runHandle?.cancel();
    if (!this.runHandle) this.store.getState().setRunning(null);
  };

  /** Put restored runs in place (a session reopened); new runs are numbered after them. */
  adoptRuns = (runs: RunRecord[], currentRunId: number | null): void => {
    this.nextRun = Math.max(this.nextRun, ...runs.map((r) => r.id + 1));
    this.store.getState().setRuns(runs, currentRunId);
  };

  /** A fresh session: no runs, and run ids from 1 again. */
  resetRuns = (): void => {
    this.runHandle?.cancel();
    this.runHandle = null;
    this.runToken = null;
    this.nextRun = 1;
    this.store.getState().setRuns([], null);
    this.store.getState().setRunning(null);
  };

  /** Open the bundled demo session: GSM8K rollouts scored by the default reward. */
  loadDemo = async (opts: Pick<ImportOpts, 'run' | 'restoring'> = {}): Promise<boolean> => {
    const res = await fetch(`${import.meta.env.BASE_URL}demo/gsm8k-rollouts.jsonl`);
    if (!res.ok) {
      useStudio
        .getState()
        .setImportError({ code: 'unreadable', message: `The demo data could not be loaded (HTTP ${res.status}).`, fileName: 'gsm8k-rollouts.jsonl' });
      return false;
    }
    return this.importBlob(await res.blob(), 'gsm8k-rollouts.jsonl', { ...opts, source: { kind: 'demo' } });
  };
}

export const studio = new Studio(useStudio);
/** The actions, as the components call them. */
export const {
  exportPython,
  warmLanguage,
  lastImportedSource,
  currentDataFile,
  importBlob,
  cancelImport,
  runReward,
  autoRun,
  cancelRun,
  adoptRuns,
  resetRuns,
  loadDemo,
  probeCall,
  probeRun,
} = studio;

/** The parse's candidates, then those found once the module ran that the parse did not list. */
function withFound(candidates: readonly RewardCandidate[], found: readonly RewardCandidate[]): RewardCandidate[] {
  const listed = candidates.filter((c) => !c.whenRun);
  return [...listed, ...found.filter((f) => !listed.some((c) => c.name === f.name))];
}
