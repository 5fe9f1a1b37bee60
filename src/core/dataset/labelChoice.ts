/**
 * Which column the label check starts on. A column's name says more than its values: `question_id` and `sample_index`
 * are numbers too, but an id is never a label, while `correct`, `acc` or `is_correct_*` are what people check against.
 */

/** What the choice needs of a column: its name and whether every present value is a boolean or 0/1. */
export interface LabelCandidate {
  name: string;
  binary: boolean;
}

/** `questionId` → `question_id`, `Sample-Index` → `sample_index`: one spelling for the word tests below. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** Last words of an id's name (`question_id`, `sample_index`, `row_no`); the first word counts only for ID_FIRST. */
const ID_WORDS = new Set(['id', 'ids', 'idx', 'index', 'uid', 'uuid', 'key', 'hash', 'seed', 'num', 'number', 'no']);
const ID_FIRST = new Set(['id', 'idx', 'index', 'uid', 'uuid']);
/** Numbers that describe a row or its run, not its quality. */
const NOT_LABEL_WORDS = new Set([
  'step',
  'epoch',
  'turn',
  'line',
  'group',
  'length',
  'len',
  'tokens',
  'token',
  'time',
  'tstamp',
  'timestamp',
  'latency',
  'price',
  'cost',
  'temperature',
  'advantage',
  'logprob',
  'logprobs',
  'truncated',
]);
/** Words that name a verdict on the row. */
const LABEL_WORDS = new Set(['correct', 'label', 'labels', 'acc', 'accuracy', 'pass', 'passed', 'success', 'solved', 'match', 'em', 'gold', 'win', 'verdict']);
/** Words that name a grade the row got from somewhere (a judge, a trainer's reward): a label, after the verdicts. */
const GRADE_WORDS = new Set(['score', 'reward', 'rating', 'grade', 'judge', 'preference']);

/** Named like an id (`id`, `question_id`, `sample_index`, `questionId`, `row_no`): never a label. */
export function isIdLike(name: string): boolean {
  const w = words(name);
  if (w.length === 0) return false;
  return ID_WORDS.has(w[w.length - 1]) || ID_FIRST.has(w[0]);
}

/** How well a column fits as the default label; lower is better, null: never the default. */
export function labelRank(c: LabelCandidate): number | null {
  const w = words(c.name);
  if (w.length === 0 || isIdLike(c.name) || w.some((x) => NOT_LABEL_WORDS.has(x))) return null;
  const verdict = w.some((x) => LABEL_WORDS.has(x)) || (w[0] === 'is' && w[1] === 'correct');
  const grade = w.some((x) => GRADE_WORDS.has(x));
  if (verdict && c.binary) return 0;
  if (verdict || (grade && c.binary)) return 1;
  if (c.binary) return 2;
  if (grade) return 3;
  return 4;
}

/** The column the label check opens on: the best-ranked one, the first among equals; null when none fits. */
export function defaultLabelColumn(columns: readonly LabelCandidate[]): string | null {
  let best: LabelCandidate | null = null;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const c of columns) {
    const r = labelRank(c);
    if (r !== null && r < bestRank) {
      best = c;
      bestRank = r;
    }
  }
  return best?.name ?? null;
}
