import { useEffect, useMemo, useState } from 'react';
import { datasetPairs, type Dataset } from '../../core/dataset/dataset';
import { preferenceAccuracy, type PreferenceAccuracy, type PreferenceCounts, type PreferencePairs } from '../../core/stats/preference';
import { computePreferenceAccuracy } from '../../runtime/importClient';
import { useRunningLong } from './useRuns';
import { pct } from './format';
import { ScoreSourceSelect, usePickedSource } from './ScoreSourceSelect';
import { useScoreSources, type ScoreSource } from './useScoreSources';

/**
 * Bootstrapped results per score column, so that coming back to the tab or switching "Scores from" back and forth
 * does not run the bootstrap again. A source's arrays never change once it exists; the entry remembers the dataset
 * its pairs were read from.
 */
const cache = new WeakMap<Float64Array, { ds: Dataset; status: Uint8Array; result: Promise<PreferenceAccuracy> }>();

type Bootstrapped = { status: 'computing' } | { status: 'ready'; result: PreferenceAccuracy } | { status: 'failed'; message: string };

/**
 * The full result with its confidence intervals, from the data worker: 2,000 resamples of every pair (and again per
 * subset) take seconds on 50k pairs (measured: ~4 s in Chromium on a slow machine), too long for the page's thread.
 */
function useBootstrapped(ds: Dataset, source: ScoreSource | null, pairs: PreferencePairs | null): Bootstrapped {
  const [state, setState] = useState<{ scores: Float64Array; b: Bootstrapped } | null>(null);
  useEffect(() => {
    if (!source || !pairs) return;
    let hit = cache.get(source.scores);
    if (!hit || hit.ds !== ds || hit.status !== source.status) {
      hit = { ds, status: source.status, result: computePreferenceAccuracy(source.scores, source.status, pairs) };
      cache.set(source.scores, hit);
      hit.result.catch(() => cache.delete(source.scores));
    }
    // The latest source wins: a reply for a source no longer picked is dropped.
    let live = true;
    hit.result.then(
      (result) => live && setState({ scores: source.scores, b: { status: 'ready', result } }),
      (e: unknown) => live && setState({ scores: source.scores, b: { status: 'failed', message: e instanceof Error ? e.message : String(e) } }),
    );
    return () => {
      live = false;
    };
  }, [ds, source, pairs]);
  return state && source && state.scores === source.scores ? state.b : { status: 'computing' };
}

/**
 * Preference accuracy: on prompt / chosen / rejected data, how often the reward scores the chosen response above the
 * rejected one (core/stats/preference: ties apart, percentile-bootstrap interval), overall and per `subset`.
 */
export function PreferenceTab({ ds }: { ds: Dataset }) {
  const sources = useScoreSources();
  const source = usePickedSource(sources);
  const running = useRunningLong();
  const pairs = useMemo(() => (ds.hasPairs ? datasetPairs(ds) : null), [ds]);
  // The counts and accuracies at once (one pass over the rows); the intervals when the worker has them.
  const quick = useMemo(() => (source && pairs ? preferenceAccuracy(source.scores, source.status, pairs, { resamples: 0 }) : null), [source, pairs]);
  const boot = useBootstrapped(ds, source, pairs);
  const r = boot.status === 'ready' ? boot.result : quick;
  const ci = (c: PreferenceCounts) =>
    !c.used ? '—' : boot.status === 'ready' ? `${pct(c.ciLow)}–${pct(c.ciHigh)}` : boot.status === 'failed' ? 'failed' : 'computing…';
  if (!ds.hasPairs) {
    return (
      <p className="muted empty-chart">
        No preference pairs in this data: load prompt / chosen / rejected rows (TRL preference, RewardBench) to see how often the reward prefers the chosen
        response.
      </p>
    );
  }
  if (!source || !r) {
    return (
      <p className="muted empty-chart">
        {running ? 'Scoring…' : 'No run yet: run a reward (Run, or Ctrl/Cmd+Enter) to see how often it scores the chosen response above the rejected one.'}
      </p>
    );
  }
  return (
    <div className="diag-split">
      <div className={running ? 'diag-charts stale' : 'diag-charts'} role="group" aria-label="Charts" tabIndex={0}>
        <p className="headline" data-testid="preference-accuracy">
          {r.used ? `accuracy ${pct(r.accuracy)} (95% CI ${ci(r)})` : 'accuracy — (no pair has every response scored)'}
        </p>
        <p className="muted small">
          A pair is correct when every chosen response scores strictly higher than every rejected one; a tie (the chosen equals the best rejected) counts as not
          correct. Accuracy = correct / scored pairs; the interval is a percentile bootstrap over the pairs
          {boot.status === 'ready' ? ` (${boot.result.resamples.toLocaleString('en-US')} resamples, seed ${boot.result.seed})` : ''}.
          {boot.status === 'failed' ? ` The interval could not be computed: ${boot.message}` : ''}
        </p>
        {r.bySubset.length > 0 ? (
          <table className="num-table" aria-label="Accuracy per subset">
            <thead>
              <tr>
                <th scope="col">subset</th>
                <th scope="col">pairs</th>
                <th scope="col">correct</th>
                <th scope="col">tied</th>
                <th scope="col">wrong</th>
                <th scope="col">accuracy</th>
                <th scope="col">95% CI</th>
              </tr>
            </thead>
            <tbody>
              {r.bySubset.map((s) => (
                <tr key={s.subset}>
                  <th scope="row">{s.subset}</th>
                  <td>{s.pairs.toLocaleString('en-US')}</td>
                  <td>{s.correct.toLocaleString('en-US')}</td>
                  <td>{s.ties.toLocaleString('en-US')}</td>
                  <td>{s.wrong.toLocaleString('en-US')}</td>
                  <td>{pct(s.accuracy)}</td>
                  <td>{ci(s)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
      <div className="diag-side">
        <ScoreSourceSelect sources={sources} value={source} />
        <dl className="stats" aria-label="Preference pairs">
          <dt>pairs</dt>
          <dd>{r.pairs.toLocaleString('en-US')}</dd>
          <dt>correct</dt>
          <dd>{r.correct.toLocaleString('en-US')}</dd>
          <dt>wrong</dt>
          <dd>{r.wrong.toLocaleString('en-US')}</dd>
          <dt>tied</dt>
          <dd>{r.ties.toLocaleString('en-US')}</dd>
          <dt title="Some response of the pair has no score (null, error, timed out)">unscored</dt>
          <dd>{r.skipped.toLocaleString('en-US')}</dd>
          {r.incomplete ? (
            <>
              <dt title="The pair has no chosen or no rejected response">missing a side</dt>
              <dd>{r.incomplete.toLocaleString('en-US')}</dd>
            </>
          ) : null}
        </dl>
      </div>
    </div>
  );
}
