/**
 * `reward-studio score`: the same import, reward and diagnostics code as the browser, run in Node worker threads.
 * Returns the exit status: 0 scored, 1 the reward does not compile or a file cannot be read, 2 usage error.
 */
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FORMAT_LABELS } from '../core/formats/labels';
import { summarizeRun } from '../core/reward/summary';
import { advantages } from '../core/stats/advantage';
import { diagnose } from '../core/stats/diagnose';
import { isPythonReward, parseArgs, USAGE, type ScoreOptions } from './args';
import { defaultPoolSize, runPool } from './pool';
import { WORKER_ROLE } from './protocol';
import { diagnosticsJson, humanReport, issuesText, outLines } from './report';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

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
  return score(parsed.options, workerUrl, io);
}

const fail = (io: Io, message: string) => {
  io.stderr(`reward-studio: ${message}\n`);
  return 1;
};

export async function score(o: ScoreOptions, workerUrl: URL, io: Io): Promise<number> {
  let code: string;
  try {
    code = readFileSync(o.rewardPath, 'utf8');
  } catch (e) {
    return fail(io, `cannot read the reward file ${o.rewardPath}: ${reason(e)}`);
  }
  try {
    const st = statSync(o.dataPath);
    if (!st.isFile()) return fail(io, `cannot read the data file ${o.dataPath}: not a file`);
  } catch (e) {
    return fail(io, `cannot read the data file ${o.dataPath}: ${reason(e)}`);
  }
  if (o.out !== null) {
    try {
      if (!statSync(dirname(resolve(o.out))).isDirectory()) throw new Error('its folder is not a folder');
    } catch (e) {
      return fail(io, `cannot write ${o.out}: ${reason(e)}`);
    }
  }

  const size = o.workers ?? defaultPoolSize();
  const python = isPythonReward(o.rewardPath);
  const outcome = await runPool({
    workerUrl,
    size,
    timeLimitMs: o.timeLimitMs,
    // print() output of a Python reward: stderr, so that stdout carries only the report.
    onOutput: (text) => io.stderr(text),
    onPythonReward: ({ chosen, others, stdout }) => {
      if (stdout) io.stderr(stdout.endsWith('\n') ? stdout : stdout + '\n');
      if (o.pythonFunction === null && others.length > 0) {
        const list = others.map((c) => `${c.name} (${c.kind}, line ${c.line})`).join(', ');
        io.stderr(`reward-studio: ${o.rewardPath} has ${others.length + 1} reward functions; using the first, ${chosen.name} (${chosen.kind}, line ${chosen.line}). Others: ${list}. Choose one with --function <name>.\n`);
      }
    },
    setup: {
      role: WORKER_ROLE,
      code,
      python: python ? { function: o.pythonFunction, batchSize: o.batchSize, timeLimitMs: o.timeLimitMs } : null,
      dataPath: resolve(o.dataPath),
      format: o.format,
      mapping: o.mapping,
      // Loaded only when the reward uses it (2–11 MB of JSON per worker).
      tokenizer: !python && /\btokenCount\b/.test(code) ? o.tokenizer : null,
      label: o.label,
    },
  });
  if (outcome.kind === 'compile-error') {
    const where = outcome.line !== undefined ? `${o.rewardPath}, line ${outcome.line}` : o.rewardPath;
    return fail(io, `${python ? 'the Python reward does not load' : 'the reward does not compile'} (${where}): ${outcome.message}`);
  }
  if (outcome.kind === 'load-failed') {
    // The browser's mapping dialog is, here, a pair of options.
    const message = outcome.message.replace(/ Choose which columns hold the prompt and the completion\.$/, ' Name them with --prompt <column> --completion <column> (and optionally --group, --ground-truth).');
    return fail(io, `cannot read the data file ${o.dataPath}: ${message}`);
  }
  if (outcome.kind === 'failed') return fail(io, outcome.message);

  const { scores, status, errors, meta, elapsedMs, workersUsed } = outcome.result;
  if (meta.issues.length > 0) io.stderr(issuesText(meta.issues, meta.detection.container) + '\n');
  if (o.label !== null && meta.labelPresent === 0) io.stderr(`reward-studio: warning: no row has a "${o.label}" field (columns: ${meta.detection.columns.join(', ')})\n`);

  const groupCount = meta.groupKeys.length;
  const diagnostics = diagnose({ scores, status, groupOf: meta.groupOf, groupCount, lengths: meta.lengths, labels: meta.labels, preset: o.preset });

  if (o.out !== null) {
    const adv = advantages(scores, meta.groupOf, groupCount, o.preset);
    try {
      writeLines(o.out, outLines(meta, scores, adv, errors));
    } catch (e) {
      return fail(io, `cannot write ${o.out}: ${reason(e)}`);
    }
  }

  if (o.json) io.stdout(diagnosticsJson(diagnostics) + '\n');
  else {
    io.stdout(
      humanReport({
        file: o.dataPath,
        reward: o.rewardPath,
        preset: o.preset,
        label: o.label,
        meta,
        formatLabel: FORMAT_LABELS[meta.detection.format],
        summary: summarizeRun(scores, status),
        diagnostics,
        errors,
        elapsedMs,
        workersUsed,
        poolSize: size,
        out: o.out,
      }) + '\n',
    );
  }
  return 0;
}

/** Write lines to a file in ~1 MB writes. */
function writeLines(path: string, lines: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    let buf: string[] = [];
    let len = 0;
    for (const l of lines) {
      buf.push(l);
      len += l.length + 1;
      if (len > 1 << 20) {
        writeSync(fd, buf.join('\n') + '\n');
        buf = [];
        len = 0;
      }
    }
    if (buf.length > 0) writeSync(fd, buf.join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
}

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return 'no such file or folder';
  if (err?.code === 'EACCES') return 'permission denied';
  if (err?.code === 'EISDIR') return 'is a folder';
  return err instanceof Error ? err.message : String(e);
}
