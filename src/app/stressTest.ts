/**
 * The Stress test panel's controller (issue 23): probes `run`'s code with each probe in the reward workers, one probe
 * after another, and keeps the figures (core/probe) in the store. The CLI's `reward-studio probe` does the same.
 */
import type { Dataset } from '../core/dataset/dataset';
import { probeFigures, probeThreshold } from '../core/probe/figures';
import { crossDonors, PROBES } from '../core/probe/probes';
import { sampleRowsSeeded } from '../core/probe/sample';
import type { RunHandle } from '../engine/engine';
import { useStudio } from '../store';
import type { RunRecord } from '../store/runsSlice';
import type { ProbeScores, StressResult } from '../store/stressSlice';
import { modelsUsedBy } from '../core/models/usedModels';
import { scoreProbed } from './models';
import { probeCall, probeRun } from './studio';

export interface StressOptions {
  /** Rollouts to probe (a seeded sample); null: all. */
  sample: number | null;
  seed: number;
  /** The pass threshold; null: the median reward of the rows whose label is true, else of all rows. */
  pass: number | null;
  maxRate: number;
  /** The label column, when the Label check has one: its true rows set the threshold. */
  label: { name: string; values: Float64Array } | null;
}

let current: { handle: RunHandle | null; cancelModel: (() => void) | null; cancelled: boolean } | null = null;

/** Stop the stress test in flight: the probes done so far are kept and shown as a cancelled test. */
export function cancelStressTest(): void {
  if (!current) return;
  current.cancelled = true;
  current.cancelModel?.();
  current.handle?.cancel();
}

export async function runStressTest(run: RunRecord, ds: Dataset, o: StressOptions): Promise<void> {
  cancelStressTest();
  const me = { handle: null as RunHandle | null, cancelModel: null as (() => void) | null, cancelled: false };
  current = me;
  const st = useStudio.getState();
  st.setStressError(null);
  const { scores, status } = run.result;
  const { threshold, source } = probeThreshold(scores, status, o.label?.values ?? null, o.pass);
  if (!Number.isFinite(threshold)) {
    st.setStressError('No rollout got a reward, so there is no pass threshold: fix the reward or give one.');
    current = null;
    return;
  }
  const rows = sampleRowsSeeded(ds.size, o.sample ?? ds.size, o.seed);
  const all = crossDonors(ds.groupOf, ds.groupKeys.length);
  const donors = rows.map((r) => all[r]);
  const call = await probeCall(run);
  if (!call.ok) {
    st.setStressError(`The reward cannot be probed: ${call.message}`);
    current = null;
    return;
  }
  const result: StressResult = {
    runId: run.id,
    datasetId: ds.id,
    rows,
    donors,
    threshold,
    source,
    label: source === 'label' ? (o.label?.name ?? null) : null,
    maxRate: o.maxRate,
    figures: [],
    scores: {},
    cancelled: false,
  };
  // The loaded models the reward reads (and that scored this dataset) score each probe's texts before it runs.
  const scored = useStudio.getState().models.filter((m) => m.scores?.datasetId === ds.id);
  const used = modelsUsedBy(
    run.code,
    run.language,
    scored.map((m) => m.id),
  );
  for (const [index, probe] of PROBES.entries()) {
    if (me.cancelled) break;
    const report = (done: number, total: number, model?: string) =>
      current === me && useStudio.getState().setStressProgress({ probe: probe.name, index, of: PROBES.length, done, total, ...(model ? { model } : {}) });
    const spec = { name: probe.name, rows, ...(probe.name === 'cross' ? { donors } : {}) };
    let models: Record<string, Float64Array> | undefined;
    for (const id of used) {
      if (me.cancelled) break;
      report(0, rows.length, id);
      const job = scoreProbed(id, ds.id, spec, (p) => report(p.done, p.total, id));
      me.cancelModel = job.cancel;
      const r = await job.done;
      me.cancelModel = null;
      if (current !== me) return;
      if (!r.ok) {
        if (!me.cancelled) useStudio.getState().setStressError(`Model ${id} could not score the texts of probe ${probe.name}: ${r.message}`);
        me.cancelled = true;
        break;
      }
      (models ??= {})[id] = r.column;
    }
    if (me.cancelled) break;
    report(0, rows.length);
    me.handle = probeRun(run, call.python, spec, (p) => report(p.done, p.total), models);
    const outcome = await me.handle.done;
    if (current !== me) return;
    if (outcome.kind !== 'done') {
      if (outcome.kind === 'cancelled') {
        if (!me.cancelled) useStudio.getState().setStressError('The stress test stopped: a run started meanwhile.');
      } else if ('message' in outcome) useStudio.getState().setStressError(`Probe ${probe.name} failed: ${outcome.message}`);
      me.cancelled = true;
      break;
    }
    const got: ProbeScores = { scores: outcome.result.scores, status: outcome.result.status };
    result.scores[probe.name] = got;
    result.figures = [...result.figures, probeFigures(probe.name, probe.kind, rows, got.scores, got.status, scores, status, threshold, o.maxRate)];
    useStudio.getState().setStress({ ...result });
  }
  result.cancelled = me.cancelled;
  const end = useStudio.getState();
  end.setStress({ ...result });
  end.setStressProgress(null);
  current = null;
}
