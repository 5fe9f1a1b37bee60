import { useEffect } from 'react';
import { partOfRow } from '../../core/dataset/parts';
import { RowStatus } from '../../core/reward/contract';
import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';
import { useCurrentRun } from '../charts/useCurrentRun';
import { useRowView } from '../data/useRowView';
import { LongText } from './LongText';
import { MessageView } from './MessageView';
import { useTrajectory } from './useTrajectory';

const STATUS_TEXT: Record<number, string> = {
  [RowStatus.Pending]: 'not scored',
  [RowStatus.Ok]: 'ok',
  [RowStatus.Null]: 'null (reward does not apply)',
  [RowStatus.Error]: 'error',
  [RowStatus.TimedOut]: 'timed out',
};

/** One rollout as the conversation it was, with its reward. Arrow keys move through the table's order. */
export function RolloutDetail() {
  const selected = useStudio((s) => s.selectedRow);
  const selectRow = useStudio((s) => s.selectRow);
  const datasetId = useStudio((s) => s.datasetId);
  const run = useCurrentRun();
  const view = useRowView();
  const ds = getDataset(datasetId);
  const pos = selected === null ? -1 : view.indexOf(selected);
  const got = useTrajectory(ds, selected);
  const t = got?.t;

  useEffect(() => {
    if (selected === null) return;
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement;
      if (el.closest?.('.monaco-editor') || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return;
      if (e.key === 'Escape') selectRow(null);
      const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
      if (!step || view.length === 0) return;
      e.preventDefault();
      const next = pos < 0 ? 0 : Math.min(view.length - 1, Math.max(0, pos + step));
      selectRow(view[next]);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selected, pos, view, selectRow]);

  if (selected === null || !ds || selected >= ds.size) return null;
  const st = run?.result.status[selected] ?? RowStatus.Pending;
  const score = run?.result.scores[selected];
  const error = run?.result.errors.get(selected);
  const note = run?.result.notes.get(selected);
  const components = run ? Object.entries(run.result.components).filter(([, a]) => Number.isFinite(a[selected])) : [];
  // A dict result's string values (verl's `pred`), next to the numbers.
  const strings = run ? Object.entries(run.result.strings ?? {}).filter(([, a]) => a[selected] !== null) : [];

  return (
    <aside className="panel detail" aria-label="Rollout detail">
      <div className="toolbar">
        <h2>
          Rollout {selected}
          <span className="muted">
            {' '}
            · group {ds.groupLabels[ds.groupOf[selected]]} · {ds.parts ? `${partOfRow(ds.parts, selected)?.name ?? ''} ` : ''}line {ds.lines[selected]}
            {t?.step !== undefined ? ` · step ${t.step}` : ''}
            {t?.preference ? ` · ${t.preference} (pair ${t.pairId})` : ''}
          </span>
        </h2>
        <span className="spacer" />
        <span className="muted">{pos >= 0 ? `${pos + 1} of ${view.length}` : ''}</span>
        <button type="button" aria-label="Previous rollout" disabled={pos <= 0} onClick={() => selectRow(view[pos - 1])}>
          ↑
        </button>
        <button type="button" aria-label="Next rollout" disabled={pos < 0 || pos >= view.length - 1} onClick={() => selectRow(view[pos + 1])}>
          ↓
        </button>
        <button type="button" aria-label="Close rollout" onClick={() => selectRow(null)}>
          ×
        </button>
      </div>
      <div className="detail-body">
        <dl className="reward-box" aria-label="Reward of this rollout">
          <dt>Reward</dt>
          <dd data-testid="detail-reward">{st === RowStatus.Ok && score !== undefined ? score : STATUS_TEXT[st]}</dd>
          {components.map(([k, a]) => (
            <div key={k} className="component">
              <dt>{k}</dt>
              <dd>{a[selected]}</dd>
            </div>
          ))}
          {strings.map(([k, a]) => (
            <div key={`s:${k}`} className="component component-text">
              <dt>{k}</dt>
              <dd>{a[selected]}</dd>
            </div>
          ))}
          {t?.groundTruth !== undefined ? (
            <>
              <dt>Ground truth</dt>
              <dd>{t.groundTruth}</dd>
            </>
          ) : null}
          {error ? (
            <>
              <dt>Error</dt>
              <dd className="error-text" role="note">
                {error.message}
                {error.line ? ` (line ${error.line})` : ''}
              </dd>
            </>
          ) : null}
          {note ? (
            <>
              <dt>Note</dt>
              <dd>{note}</dd>
            </>
          ) : null}
        </dl>
        {t ? (
          <>
            <ol className="conversation" aria-label="Conversation">
              {t.messages.map((m, i) => (
                <MessageView key={i} message={m} />
              ))}
            </ol>
            <details className="fields">
              <summary>All fields</summary>
              <LongText text={JSON.stringify(t.fields, null, 2)} />
            </details>
          </>
        ) : got?.error ? (
          <p role="alert">Could not read this rollout: {got.error}</p>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    </aside>
  );
}
