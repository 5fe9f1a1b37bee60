import type { RunRecord } from '../../store/runsSlice';

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB');

/** A run as the Run history lists it ("#3 · exact match · 10:42:07 · mean 0.369 · 800 ok"), and wherever a run is picked by name. */
export function runLabel(r: RunRecord): string {
  const failed = r.summary.errors + r.summary.timedOut;
  return (
    `#${r.id} · ${r.name ? `${r.name} · ` : ''}${time(r.startedAt)} · mean ${Number.isNaN(r.summary.mean) ? '—' : r.summary.mean.toFixed(3)} · ${r.summary.ok} ok` +
    (failed ? ` · ${failed} failed` : '') +
    (r.cancelled ? ' · cancelled' : '')
  );
}
