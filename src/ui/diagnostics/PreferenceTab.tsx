import { useEffect, useMemo, useState } from 'react';
import { datasetPairs, type Dataset } from '../../core/dataset/dataset';
import type { PairColumn } from '../../core/dataset/pairColumns';
import { pairOutcomes, preferenceAccuracy, type PreferenceAccuracy, type PreferenceCounts, type PreferencePairs } from '../../core/stats/preference';
import { accuracyByKey, wrongPairs } from '../../core/stats/preferenceBreakdown';
import { computePreferenceAccuracy, fetchPairColumns } from '../../runtime/importClient';
import { PairView } from './PairView';
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
      // Per subset the tab shows Wilson intervals (below), so only the overall interval is bootstrapped.
      hit = { ds, status: source.status, result: computePreferenceAccuracy(source.scores, source.status, { ...pairs, subsetOf: undefined }) };
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

/** Wrong pairs listed at most (the worst ones). */
const LISTED = 100;

/**
 * Columns to break accuracy down by: `subset` from the import at once, then the other categorical columns of the
 * pairs' records once the data worker has read them (a failure leaves `subset` alone and says why).
 */
function usePairColumns(ds: Dataset, pairs: PreferencePairs | null): { columns: PairColumn[]; error: string | null } {
  const subset = useMemo<PairColumn | null>(() => {
    if (!pairs?.subsetOf) return null;
    const index = new Map<string, number>();
    const keyOf = new Int32Array(pairs.pairCount);
    pairs.subsetOf.forEach((s, p) => {
      let k = index.get(s);
      if (k === undefined) index.set(s, (k = index.size));
      keyOf[p] = k;
    });
    return { name: 'subset', keys: [...index.keys()], keyOf };
  }, [pairs]);
  const [more, setMore] = useState<{ ds: Dataset; columns: PairColumn[]; error: string | null } | null>(null);
  useEffect(() => {
    if (!ds.hasPairs) return;
    let live = true;
    fetchPairColumns(ds).then(
      (columns) => live && setMore({ ds, columns, error: null }),
      (e: unknown) => live && setMore({ ds, columns: [], error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [ds]);
  return useMemo(() => {
    const read = more?.ds === ds ? more : null;
    const others = (read?.columns ?? []).filter((c) => !subset || c.name !== 'subset');
    return { columns: subset ? [subset, ...others] : others, error: read?.error ?? null };
  }, [ds, more, subset]);
}

/**
 * Preference accuracy: on prompt / chosen / rejected data, how often the reward scores the chosen response above the
 * rejected one (core/stats/preference: ties apart, percentile-bootstrap interval), per column of the records (subset,
 * model…: Wilson intervals), and the pairs it orders wrongly, each opened side by side.
 */
export function PreferenceTab({ ds }: { ds: Dataset }) {
  const sources = useScoreSources();
  const source = usePickedSource(sources);
  const running = useRunningLong();
  const pairs = useMemo(() => (ds.hasPairs ? datasetPairs(ds) : null), [ds]);
  // The counts and accuracies at once (one pass over the rows); the intervals when the worker has them.
  const quick = useMemo(() => (source && pairs ? preferenceAccuracy(source.scores, source.status, pairs, { resamples: 0 }) : null), [source, pairs]);
  const boot = useBootstrapped(ds, source, pairs);
  const outcomes = useMemo(() => (source && pairs ? pairOutcomes(source.scores, source.status, pairs) : null), [source, pairs]);
  const wrong = useMemo(() => (outcomes ? wrongPairs(outcomes) : null), [outcomes]);
  const { columns, error: columnsError } = usePairColumns(ds, pairs);
  const [byName, setByName] = useState<string | null>(null);
  const by = columns.find((c) => c.name === byName) ?? columns[0] ?? null;
  const byRows = useMemo(() => (outcomes && by ? accuracyByKey(outcomes.outcome, by.keyOf, by.keys) : []), [outcomes, by]);
  const [open, setOpen] = useState<{ ds: Dataset; pair: number } | null>(null);
  const openPair = open?.ds === ds && open.pair < (pairs?.pairCount ?? 0) ? open.pair : null;
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
        {by ? (
          <>
            <label className="inline-field">
              Accuracy by{' '}
              <select aria-label="Accuracy by" value={by.name} onChange={(e) => setByName(e.target.value)}>
                {columns.map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <table className="num-table" aria-label={`Accuracy by ${by.name}`}>
              <thead>
                <tr>
                  <th scope="col">{by.name}</th>
                  <th scope="col">pairs</th>
                  <th scope="col">correct</th>
                  <th scope="col">tied</th>
                  <th scope="col">wrong</th>
                  <th scope="col">accuracy</th>
                  <th scope="col" title="Wilson score interval of correct / scored pairs">
                    95% CI
                  </th>
                </tr>
              </thead>
              <tbody>
                {byRows.map((s) => (
                  <tr key={s.key}>
                    <th scope="row">{s.key}</th>
                    <td>{s.pairs.toLocaleString('en-US')}</td>
                    <td>{s.correct.toLocaleString('en-US')}</td>
                    <td>{s.ties.toLocaleString('en-US')}</td>
                    <td>{s.wrong.toLocaleString('en-US')}</td>
                    <td>{pct(s.accuracy)}</td>
                    <td>{s.used ? `${pct(s.low)}–${pct(s.high)}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="muted small">Per {by.name}: the interval is Wilson's score interval (95%) of correct / scored pairs, ties counted as not correct.</p>
          </>
        ) : null}
        {columnsError ? <p className="muted small">Other columns could not be read: {columnsError}</p> : null}
        {wrong ? (
          <div className="wrong-pairs">
            <h3>
              {wrong.length === 0
                ? 'No pair ordered wrongly'
                : `${wrong.length.toLocaleString('en-US')} ${wrong.length === 1 ? 'pair' : 'pairs'} ordered wrongly${wrong.length > LISTED ? ` (the ${LISTED} worst)` : ''}`}
            </h3>
            {wrong.length > 0 ? (
              <ol aria-label="Pairs ordered wrongly">
                {Array.from(wrong.subarray(0, LISTED), (p) => (
                  <li key={p}>
                    <button type="button" aria-pressed={openPair === p} onClick={() => setOpen({ ds, pair: p })}>
                      Pair {p + 1}: chosen {fmtScore(outcomes!.minChosen[p])} &lt; rejected {fmtScore(outcomes!.maxRejected[p])}
                    </button>
                  </li>
                ))}
              </ol>
            ) : null}
          </div>
        ) : null}
        {openPair !== null && source ? <PairView ds={ds} pair={openPair} scores={source.scores} status={source.status} onClose={() => setOpen(null)} /> : null}
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

/** A score as the wrong-pairs list shows it: up to 4 decimals. */
function fmtScore(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}
