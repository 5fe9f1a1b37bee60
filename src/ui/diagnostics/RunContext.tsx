import { useMemo } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { missingReads, rewardReads } from '../../core/reward/reads';
import { constantScore } from '../../core/stats/constant';
import type { RunRecord } from '../../store/runsSlice';
import { fmt } from './format';

/**
 * Above the charts: which code ran on which file (a run the studio started after an import says so), and, when every
 * row scored the same, that the reward tells nothing apart, with the fields it reads that this data lacks.
 */
export function RunContext({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const same = useMemo(() => constantScore(run.result.scores, run.result.status), [run]);
  const missing = useMemo(
    () => (same ? missingReads(rewardReads(run.code, run.language), { columns: ds.detection.columns, groundTruthColumn: ds.mapping?.groundTruth }) : []),
    [same, run, ds],
  );
  if (run.id < 0) return null; // a model's scores: the Reward models panel says what they are
  const code = run.language === 'py' ? `Python ${run.pyFunction ?? 'reward'}` : 'TypeScript reward';
  return (
    <div className="run-context">
      <p className="muted small" aria-label="What ran">
        Run #{run.id}: {run.auto ? `the editor's ${code}, run by the studio when the data loaded,` : `${code}, run with Run,`} on <strong>{ds.name}</strong> (
        {ds.size.toLocaleString('en-US')} rollouts).
      </p>
      {same ? (
        <p role="note" aria-label="Same score on every row" className="warn-banner">
          Every scored rollout got {fmt(same.value)} ({same.rows.toLocaleString('en-US')} of {ds.size.toLocaleString('en-US')}): this reward tells none apart,
          so no group carries a learning signal.
          {missing.length > 0 ? ` It reads what this data does not have: ${missing.join('; ')}.` : ''}
        </p>
      ) : null}
    </div>
  );
}
