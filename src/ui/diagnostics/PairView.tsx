import { useEffect, useMemo, useRef, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { PairSide } from '../../core/stats/preference';
import { RowStatus } from '../../core/reward/contract';
import type { Trajectory } from '../../core/trajectory';
import { fetchTrajectories } from '../../runtime/importClient';
import { LongText } from '../viewer/LongText';

const STATUS_TEXT: Record<number, string> = {
  [RowStatus.Pending]: 'not scored',
  [RowStatus.Null]: 'null',
  [RowStatus.Error]: 'error',
  [RowStatus.TimedOut]: 'timed out',
};

/** The rows of pair `pair`, chosen first, in dataset order (a scan of pairOf: one pair is opened at a time). */
function rowsOfPair(ds: Dataset, pair: number): { chosen: number[]; rejected: number[] } {
  const chosen: number[] = [];
  const rejected: number[] = [];
  for (let i = 0; i < ds.size; i++) {
    if (ds.pairOf[i] !== pair) continue;
    if (ds.pairSide[i] === PairSide.Chosen) chosen.push(i);
    else if (ds.pairSide[i] === PairSide.Rejected) rejected.push(i);
  }
  return { chosen, rejected };
}

/**
 * One preference pair side by side: the prompt, then chosen | rejected, each response with its reward. Escape or
 * the close button closes it.
 */
export function PairView({ ds, pair, scores, status, onClose }: { ds: Dataset; pair: number; scores: Float64Array; status: Uint8Array; onClose(): void }) {
  const rows = useMemo(() => rowsOfPair(ds, pair), [ds, pair]);
  const [got, setGot] = useState<{ pair: number; ts: Map<number, Trajectory> } | { pair: number; error: string } | null>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    let live = true;
    fetchTrajectories(ds, [...rows.chosen, ...rows.rejected]).then(
      (ts) => {
        if (!live) return;
        if (!ts) setGot({ pair, error: 'the data is no longer loaded' });
        else setGot({ pair, ts: new Map(ts.map((t, k) => [k < rows.chosen.length ? rows.chosen[k] : rows.rejected[k - rows.chosen.length], t])) });
      },
      (e: unknown) => live && setGot({ pair, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [ds, pair, rows]);
  // Focus moves into the view so that Escape closes it and a keyboard user lands where the content is.
  useEffect(() => close.current?.focus(), [pair]);

  const current = got?.pair === pair ? got : null;
  const ts = current && 'ts' in current ? current.ts : null;
  const first = ts?.get(rows.chosen[0] ?? rows.rejected[0]);
  const reward = (i: number) => (status[i] === RowStatus.Ok && Number.isFinite(scores[i]) ? String(scores[i]) : (STATUS_TEXT[status[i]] ?? 'not scored'));
  const side = (label: string, list: number[]) => (
    <div className="pair-side" role="group" aria-label={label}>
      <h4>{label}</h4>
      {list.map((i) => (
        <div key={i} className="pair-response">
          <p className="muted small">
            rollout {i} · reward <strong data-testid={`${label.toLowerCase()}-reward`}>{reward(i)}</strong>
          </p>
          {ts ? <LongText text={ts.get(i)?.completion ?? ''} className="pair-text" /> : null}
        </div>
      ))}
    </div>
  );
  return (
    <section
      className="pair-view"
      aria-label={`Pair ${pair + 1}: chosen and rejected`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="toolbar">
        <h3>
          Pair {pair + 1}
          {first?.pairId !== undefined ? <span className="muted"> · id {first.pairId}</span> : null}
        </h3>
        <span className="spacer" />
        <button ref={close} type="button" aria-label="Close pair" onClick={onClose}>
          ×
        </button>
      </div>
      {current && 'error' in current ? <p role="alert">Could not read this pair: {current.error}</p> : null}
      {!current ? <p className="muted">Loading…</p> : null}
      {first ? <LongText text={first.prompt} className="pair-prompt" /> : null}
      <div className="pair-sides">
        {side('Chosen', rows.chosen)}
        {side('Rejected', rows.rejected)}
      </div>
    </section>
  );
}
