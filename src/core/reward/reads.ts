import { GROUND_TRUTH_SOURCES } from '../formats/record-fields';

/**
 * What reward code reads of a rollout, found in its text (not run): enough to say why a reward gives every row the
 * same score on data of another shape, e.g. a GSM8K reward reading `t.groundTruth` on chats that have none.
 */
export type Read = { kind: 'groundTruth'; as: string } | { kind: 'column'; name: string; as: string };

const add = (out: Read[], r: Read) => {
  if (!out.some((x) => x.kind === r.kind && (x.kind === 'groundTruth' || (r.kind === 'column' && x.name === r.name)))) out.push(r);
};

/** Reads in TypeScript / JavaScript: `<t>.groundTruth`, `<t>.fields.x`, `<t>.fields['x']` (any name for the rollout). */
function readsTs(code: string): Read[] {
  const out: Read[] = [];
  for (const m of code.matchAll(/\b([A-Za-z_$][\w$]*)\s*\??\.\s*groundTruth\b/g)) add(out, { kind: 'groundTruth', as: `${m[1]}.groundTruth` });
  for (const m of code.matchAll(/\b([A-Za-z_$][\w$]*)\s*\??\.\s*fields\s*\??\.\s*([A-Za-z_$][\w$]*)/g))
    add(out, { kind: 'column', name: m[2], as: `${m[1]}.fields.${m[2]}` });
  for (const m of code.matchAll(/\b([A-Za-z_$][\w$]*)\s*\??\.\s*fields\s*(?:\?\.)?\[\s*(['"`])([^'"`\n]{1,200})\2\s*\]/g))
    add(out, { kind: 'column', name: m[3], as: `${m[1]}.fields[${m[2]}${m[3]}${m[2]}]` });
  return out;
}

/** TRL passes the dataset's columns as keyword arguments; these names are the trainer's own. */
const TRL_OWN = new Set(['completions', 'prompts', 'completion_ids', 'kwargs', 'self', 'trainer_state', 'log_extra', 'log_metric']);

/**
 * Reads in Python: verl's `ground_truth` argument (the rollout's ground truth), a TRL function's named column
 * arguments (`def f(completions, solution, **kwargs)`), and `kwargs["x"]` / `kwargs.get("x")`.
 */
function readsPy(code: string): Read[] {
  const out: Read[] = [];
  if (/\bground_truth\b/.test(code)) add(out, { kind: 'groundTruth', as: 'ground_truth' });
  for (const m of code.matchAll(/^\s*def\s+\w+\s*\(([^)]*)\)/gm)) {
    const params = m[1].split(',').map((p) =>
      p
        .trim()
        .replace(/[:=].*$/s, '')
        .trim(),
    );
    if (!params.includes('completions')) continue; // only TRL reward functions receive columns by name
    for (const p of params) if (/^[A-Za-z_]\w*$/.test(p) && !TRL_OWN.has(p)) add(out, { kind: 'column', name: p, as: p });
  }
  for (const m of code.matchAll(/\bkwargs\s*(?:\[\s*|\.get\(\s*)(['"])([^'"\n]{1,200})\1/g))
    add(out, { kind: 'column', name: m[2], as: `kwargs[${m[1]}${m[2]}${m[1]}]` });
  return out;
}

export function rewardReads(code: string, language: 'ts' | 'py'): Read[] {
  return language === 'py' ? readsPy(code) : readsTs(code);
}

/** The data's side: its columns (as detection saw them) and the column mapped to the ground truth, if any. */
export interface DataShape {
  columns: readonly string[];
  groundTruthColumn?: string;
}

/**
 * The reads this data cannot answer, each as a sentence: a ground truth when no column of the data is one, a column
 * the data does not have. Empty when every read finds something.
 */
export function missingReads(reads: readonly Read[], data: DataShape): string[] {
  const cols = new Set(data.columns);
  const out: string[] = [];
  for (const r of reads) {
    if (r.kind === 'groundTruth') {
      const has = data.groundTruthColumn ? cols.has(data.groundTruthColumn) : GROUND_TRUTH_SOURCES.some((c) => cols.has(c));
      if (!has) out.push(`${r.as}: this data has no ground-truth column (${GROUND_TRUTH_SOURCES.join(', ')})`);
    } else if (!cols.has(r.name)) {
      out.push(`${r.as}: this data has no column "${r.name}"`);
    }
  }
  return out;
}
