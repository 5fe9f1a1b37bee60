import { useDeferredValue, useId, useMemo } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import type { LabelColumn } from '../../core/dataset/labelColumns';
import { useStudio } from '../../store';
import type { DiagTab } from '../../store/uiSlice';
import { BestOfNTab } from './BestOfNTab';
import { CollapseTab } from './CollapseTab';
import { CompareTab } from './CompareTab';
import { DistributionTab } from './DistributionTab';
import { GroupByTab } from './GroupByTab';
import { LabelTab } from './LabelTab';
import { LengthTab } from './LengthTab';
import { PreferenceTab } from './PreferenceTab';
import { RunContext } from './RunContext';
import { ScoreSourcePicker } from './ScoreSourcePicker';
import { StressTestTab } from './StressTestTab';
import { OverStepsTab } from './steps/OverStepsTab';
import { countSteps } from '../../core/steps/overSteps';
import { ShapingTab } from '../shaping/ShapingTab';
import { useShapedRun } from '../shaping/useShapedRun';
import { useLabelColumns } from './useDataColumns';
import { useDiagnosedRun } from './useDiagnosedRun';
import { useDataset, useRunningLong } from './useRuns';

const TABS: { id: DiagTab; label: string }[] = [
  { id: 'distribution', label: 'Distribution' },
  { id: 'length', label: 'Length' },
  { id: 'collapse', label: 'Advantage collapse' },
  { id: 'label', label: 'Label check' },
  { id: 'compare', label: 'Compare runs' },
  { id: 'preference', label: 'Preference' },
  { id: 'bestofn', label: 'Best-of-N' },
  { id: 'groupby', label: 'Group by' },
  { id: 'stress', label: 'Stress test' },
  { id: 'steps', label: 'Over steps' },
  { id: 'shaping', label: 'Shaping' },
];

/** Whether a tab has something to show for this data; the others are listed always. */
function applies(tab: DiagTab, ds: Dataset | null, labels: LabelColumn[] | null): boolean {
  if (tab === 'preference') return ds?.hasPairs ?? false;
  if (tab === 'steps') return !!ds && ds.hasSteps && countSteps(ds.steps, 2) >= 2;
  // Best-of-N needs groups of two or more and a trusted 0/1 label per rollout.
  if (tab === 'bestofn') return !!ds && ds.groupSizes.some((n) => n >= 2) && !!labels?.some((c) => c.binary);
  return true;
}

/** What the current run's reward does: one tab per diagnostic (DESIGN.md, "Diagnostics, defined"). */
export function DiagnosticsPanel() {
  const tab = useStudio((s) => s.diagTab);
  const setTab = useStudio((s) => s.setDiagTab);
  const running = useRunningLong();
  const runs = useStudio((s) => s.runs);
  const datasetId = useStudio((s) => s.datasetId);
  const diagnosed = useDiagnosedRun();
  const ds = useDataset();
  // The Shaping step between the reward and the diagnostics: the Shaping tab compares, the others may show it shaped.
  const shapedView = useShapedRun(diagnosed, ds);
  const run = tab === 'shaping' ? diagnosed : shapedView.run;
  const modelShown = useStudio((s) => s.diagSource !== null);
  const labels = useLabelColumns(ds);
  const id = useId();
  const s = run?.summary;
  const sameData = runs.filter((r) => r.datasetId === datasetId);
  // The open tab stays listed even when it does not apply (a session saved on other data): it says why it is empty.
  const tabs = useMemo(() => TABS.filter((t) => t.id === tab || applies(t.id, ds, labels)), [tab, ds, labels]);
  // The charts follow a new run or dataset in a render of their own, after the page has taken in the run: their
  // statistics over 100,000 rows would otherwise make one task of 100+ ms with the end of the run. Run and dataset
  // travel together, so a chart never pairs one dataset's run with another's columns.
  const current = useMemo(() => ({ run, ds }), [run, ds]);
  const shown = useDeferredValue(current);
  let body;
  // Preference and Best-of-N take their scores from any source (useScoreSources: runs and models), not only the current run.
  const ownSources = tab === 'preference' || tab === 'bestofn';
  if (shown.ds && tab === 'preference') body = <PreferenceTab ds={shown.ds} />;
  else if (shown.ds && tab === 'bestofn') body = <BestOfNTab ds={shown.ds} />;
  else if (!shown.run || !shown.ds)
    body = (
      <p className="muted empty-chart">
        {shapedView.problem && tab !== 'shaping'
          ? shapedView.problem
          : modelShown
            ? 'The model has not scored these rollouts yet.'
            : running
              ? 'Scoring…'
              : 'Run a reward to see its distribution.'}
      </p>
    );
  else if (tab === 'distribution') body = <DistributionTab run={shown.run} />;
  else if (tab === 'length') body = <LengthTab run={shown.run} ds={shown.ds} />;
  else if (tab === 'collapse') body = <CollapseTab run={shown.run} ds={shown.ds} />;
  else if (tab === 'label') body = <LabelTab run={shown.run} ds={shown.ds} />;
  else if (tab === 'groupby') body = <GroupByTab run={shown.run} ds={shown.ds} />;
  else if (tab === 'stress') body = <StressTestTab run={shown.run} ds={shown.ds} />;
  else if (tab === 'steps') body = <OverStepsTab run={shown.run} ds={shown.ds} />;
  else if (tab === 'shaping') body = <ShapingTab run={shown.run} ds={shown.ds} />;
  else body = <CompareTab runs={sameData} />;
  return (
    <section className="panel diag-panel" aria-label="Diagnostics">
      <div className="toolbar">
        <div role="tablist" aria-label="Diagnostics" className="tabs">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`${id}-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`${id}-panel`}
              tabIndex={tab === t.id ? 0 : -1}
              className={tab === t.id ? 'tab active' : 'tab'}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => {
                const k = tabs.findIndex((x) => x.id === tab);
                const next = e.key === 'ArrowRight' ? tabs[(k + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(k + tabs.length - 1) % tabs.length] : null;
                if (next) {
                  setTab(next.id);
                  document.getElementById(`${id}-${next.id}`)?.focus();
                }
              }}
            >
              {t.label}
            </button>
          ))}
        </div>
        {ownSources ? null : <ScoreSourcePicker />}
        <span className="spacer" />
        {s ? (
          <span className="muted" data-testid="run-summary">
            mean {Number.isNaN(s.mean) ? '—' : s.mean.toFixed(4)} · {s.ok.toLocaleString('en-US')} scored
            {s.nulls ? ` · ${s.nulls} null` : ''}
            {s.errors ? ` · ${s.errors} errors` : ''}
            {s.timedOut ? ` · ${s.timedOut} timed out` : ''}
            {run?.cancelled ? ' · cancelled' : ''}
          </span>
        ) : null}
        {running && run ? <span className="stale-tag">updating…</span> : null}
        {shapedView.active && tab !== 'shaping' ? <span className="stale-tag">shaped</span> : null}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`} className="diag-body">
        {!ownSources && shown.run && shown.ds ? <RunContext run={shown.run} ds={shown.ds} /> : null}
        {body}
      </div>
    </section>
  );
}
