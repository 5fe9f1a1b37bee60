/**
 * `--model <folder>`: reward models in the CLI. A folder in the layout the studio's Reward models panel takes is read
 * with the same code (core/models: inspect, encode, batch, score) and run with onnxruntime-node on the CPU (in the
 * parent process when sandboxed: src/cli/modelHost.ts); each
 * model's score column becomes `RunOptions.models`, so `ctx.models.<name>` and Python's `model_scores` read it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { TokenBatch } from '../core/models/batching';
import { RolloutEncoder, type InputMode } from '../core/models/encode';
import { inspectModelFolder, type ModelFolder, type PickedFile } from '../core/models/modelFolder';
import { ensembleSummary } from '../core/models/ensemble';
import { accessorName } from '../core/models/naming';
import { labelColumn, scoreRollouts } from '../core/models/scoreRollouts';
import type { Trajectory } from '../core/trajectory';
import type { OpenSession, OrtSession } from './modelHost';

export interface CliModel {
  /** The name reward code reads it by (`ctx.models.<name>`), as the studio names it. */
  name: string;
  dir: string;
  folder: ModelFolder;
  /** The studio's default: the chat template when the tokenizer has one, else the text pair. */
  mode: InputMode;
  encoder: RolloutEncoder;
  onnxPath: string;
  infer(batch: TokenBatch): Promise<Float32Array>;
  release(): Promise<void>;
}

/** Inputs the studio knows how to fill (as src/worker/modelSession.ts); any other makes the model unusable. */
const FILLABLE = new Set(['input_ids', 'attention_mask', 'token_type_ids', 'position_ids']);

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Every file under `dir`, as the browser's folder pick lists them (paths under the folder's own name). */
function pickFolder(dir: string): PickedFile[] {
  const top = basename(dir);
  const out: PickedFile[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) {
        const abs = join(dir, r);
        out.push({ path: `${top}/${r}`, size: statSync(abs).size, text: async () => readFileSync(abs, 'utf8') });
      }
    }
  };
  walk('');
  return out;
}

/** Open each folder as the studio would: its first ONNX variant (fp32 first), label 0, the default input mode. */
export async function openModels(dirs: readonly string[], open: OpenSession): Promise<{ ok: true; models: CliModel[] } | { ok: false; message: string }> {
  const models: CliModel[] = [];
  const fail = async (m: string) => {
    await closeModels(models);
    return { ok: false as const, message: m };
  };
  for (const given of dirs) {
    const dir = resolve(given);
    let files: PickedFile[];
    try {
      if (!statSync(dir).isDirectory()) return fail(`--model ${given}: not a folder`);
      files = pickFolder(dir);
    } catch (e) {
      return fail(`--model ${given}: cannot read the folder (${message(e)})`);
    }
    const r = await inspectModelFolder(files);
    if (!r.ok) return fail(`--model ${given}: ${r.message}`);
    const folder = r.folder;
    const mode: InputMode = folder.chatTemplate ? 'chat' : 'pair';
    let encoder: RolloutEncoder;
    try {
      encoder = new RolloutEncoder(
        {
          tokenizerJson: folder.tokenizerJson,
          tokenizerConfig: folder.tokenizerConfig,
          chatTemplate: folder.chatTemplate,
          maxLength: folder.maxLength,
          config: folder.config,
        },
        mode,
      );
    } catch (e) {
      return fail(`--model ${given}: the tokenizer cannot be read (${message(e)})`);
    }
    const onnxPath = join(dir, folder.onnx[0].path.split('/').slice(1).join('/'));
    let session: OrtSession;
    try {
      session = await open(onnxPath);
    } catch (e) {
      const m = message(e);
      return fail(/onnxruntime-node is not available/.test(m) ? m : `--model ${given}: ${folder.onnx[0].path} is not a valid ONNX model (onnxruntime: ${m})`);
    }
    const unknown = session.inputNames.filter((n) => !FILLABLE.has(n));
    if (unknown.length || !session.inputNames.includes('input_ids')) {
      await session.release();
      return fail(
        `--model ${given}: ${unknown.length ? `the model takes inputs ${unknown.map((n) => `"${n}"`).join(', ')} that a sequence classifier does not have` : 'the model has no "input_ids" input'}: export it with --task text-classification`,
      );
    }
    const name = accessorName(folder.name, new Set(models.map((m) => m.name)));
    models.push({ name, dir, folder, mode, encoder, onnxPath, infer: (b) => session.run(b), release: () => session.release() });
  }
  return { ok: true, models };
}

export async function closeModels(models: readonly CliModel[]): Promise<void> {
  await Promise.all(models.map((m) => m.release().catch(() => undefined)));
}

/** What one model's scoring of some rollouts left unscored, for a warning. */
export interface ScoredColumns {
  columns: Record<string, Float64Array>;
  /** Per model with failures: how many rollouts have no score, and the first reason. */
  failures: { name: string; count: number; first: string }[];
  truncated: { name: string; count: number }[];
}

/** Each model's score (label 0's raw logit, as the studio's default) for each of `rows`, by position. */
export async function scoreColumns(models: readonly CliModel[], rows: readonly Trajectory[]): Promise<ScoredColumns> {
  const out: ScoredColumns = { columns: {}, failures: [], truncated: [] };
  for (const m of models) {
    const r = await scoreRollouts(rows, m.encoder, m.infer, {
      numLabels: m.folder.labels.length,
      modelKey: `${m.onnxPath}|${m.mode}|${m.folder.maxLength ?? 'none'}`,
    });
    out.columns[m.name] = labelColumn(r.logits, r.numLabels, 0);
    if (r.errors.size > 0) out.failures.push({ name: m.name, count: r.errors.size, first: r.errors.values().next().value! });
    if (r.truncatedCount > 0) out.truncated.push({ name: m.name, count: r.truncatedCount });
  }
  return out;
}

/** `--json`'s `ensemble` with ≥ 2 models: names, mean std across models per rollout, pairwise correlations (small on purpose). */
export function ensembleReport(columns: Record<string, Float64Array>): { json: Record<string, unknown>; text: string } | null {
  const names = Object.keys(columns);
  if (names.length < 2) return null;
  const s = ensembleSummary(
    names,
    names.map((n) => columns[n]),
  );
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  const pairs = s.pairs.map((p) => ({ a: p.a, b: p.b, pearson: num(p.pearson), spearman: num(p.spearman) }));
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
  const text = [
    `Ensemble of ${names.join(', ')} (ctx.models.ensemble): mean disagreement (std across models) ${f(s.meanStd)} over ${s.scored} rollouts all scored`,
    ...s.pairs.map((p) => `  ${p.a} vs ${p.b}: Pearson ${f(p.pearson)}, Spearman ${f(p.spearman)}`),
  ].join('\n');
  return { json: { ensemble: { models: names, meanStd: num(s.meanStd), pairs } }, text };
}
