import { useId } from 'react';
import { useStudio } from '../../store';
import type { DiagTab } from '../../store/uiSlice';
import { CollapseTab } from './CollapseTab';
import { CompareTab } from './CompareTab';
import { DistributionTab } from './DistributionTab';
import { LabelTab } from './LabelTab';
import { LengthTab } from './LengthTab';
import { ScoreSourcePicker } from './ScoreSourcePicker';
import { useDiagnosedRun } from './useDiagnosedRun';
import { useDataset } from './useRuns';

const TABS: { id: DiagTab; label: string }[] = [
  { id: 'distribution', label: 'Distribution' },
  { id: 'length', label: 'Length' },
  { id: 'collapse', label: 'Advantage collapse' },
  { id: 'label', label: 'Label check' },
  { id: 'compare', label: 'Compare runs' },
];

/** What the current run's reward does: one tab per diagnostic (DESIGN.md, "Diagnostics, defined"). */
export function DiagnosticsPanel() {
  const tab = useStudio((s) => s.diagTab);
  const setTab = useStudio((s) => s.setDiagTab);
  const running = useStudio((s) => s.running !== null);
  const runs = useStudio((s) => s.runs);
  const datasetId = useStudio((s) => s.datasetId);
  const run = useDiagnosedRun();
  const modelShown = useStudio((s) => s.diagSource !== null);
  const ds = useDataset();
  const id = useId();
  const s = run?.summary;
  const sameData = runs.filter((r) => r.datasetId === datasetId);
  let body;
  if (!run || !ds) body = <p className="muted empty-chart">{modelShown ? 'The model has not scored these rollouts yet.' : running ? 'Scoring…' : 'Run a reward to see its distribution.'}</p>;
  else if (tab === 'distribution') body = <DistributionTab run={run} />;
  else if (tab === 'length') body = <LengthTab run={run} ds={ds} />;
  else if (tab === 'collapse') body = <CollapseTab run={run} ds={ds} />;
  else if (tab === 'label') body = <LabelTab run={run} ds={ds} />;
  else body = <CompareTab runs={sameData} />;
  return (
    <section className="panel diag-panel" aria-label="Diagnostics">
      <div className="toolbar">
        <div role="tablist" aria-label="Diagnostics" className="tabs">
          {TABS.map((t) => (
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
                const k = TABS.findIndex((x) => x.id === tab);
                const next = e.key === 'ArrowRight' ? TABS[(k + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(k + TABS.length - 1) % TABS.length] : null;
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
        <ScoreSourcePicker />
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
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`} className="diag-body">
        {body}
      </div>
    </section>
  );
}
