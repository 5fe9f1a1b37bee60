import { useEffect, useMemo, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { defaultLabelColumn } from '../../core/dataset/labelChoice';
import { DEFAULT_MAX_RATE, type ProbeFigures } from '../../core/probe/figures';
import { applyProbe, PAD_TEXT, probeByName } from '../../core/probe/probes';
import { RowStatus } from '../../core/reward/contract';
import type { Trajectory } from '../../core/trajectory';
import { cancelStressTest, runStressTest } from '../../app/stressTest';
import { fetchTrajectories } from '../../runtime/importClient';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import type { StressResult } from '../../store/stressSlice';
import { LongText } from '../viewer/LongText';
import { useLabelColumns } from './useDataColumns';

/** Rollouts probed by default: all of a small file, a seeded sample of a large one (the CLI's --sample). */
const DEFAULT_SAMPLE = 2000;
/** Fooled rollouts listed for one probe. */
const SHOWN = 20;

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '—');
/** A master key in quotes, so a blank or a comma reads as one. */
const probeLabel = (name: string) => (name.startsWith('master-key:') ? `master-key:${JSON.stringify(name.slice(11))}` : name);

/**
 * Stress test (issue 23): texts made to fool the reward in place of each rollout's completion, how often each passes
 * the threshold (replacements) or beats the rollout's own reward (modifications), and the rollouts it fooled.
 */
export function StressTestTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const stress = useStudio((s) => s.stress);
  const progress = useStudio((s) => s.stressProgress);
  const error = useStudio((s) => s.stressError);
  const code = useStudio((s) => s.code);
  const language = useStudio((s) => s.language);
  const labelColumn = useStudio((s) => s.labelColumn);
  const columns = useLabelColumns(ds);
  const [sample, setSample] = useState(String(Math.min(ds.size, DEFAULT_SAMPLE)));
  const [seed, setSeed] = useState('1');
  const [pass, setPass] = useState('');
  const [maxRate, setMaxRate] = useState(String(100 * DEFAULT_MAX_RATE));
  const [open, setOpen] = useState<string | null>(null);
  const label = columns?.find((c) => c.name === labelColumn) ?? (columns ? (columns.find((c) => c.name === defaultLabelColumn(columns)) ?? null) : null);
  // Only code the user ran here may be probed: a run from a link or a file, or an edited editor, must be Run first.
  const runnable = !run.from && run.code === code && run.language === language && !run.cancelled;
  const shown = stress && stress.runId === run.id && stress.datasetId === ds.id ? stress : null;
  const sampleN = Number(sample);
  const passN = pass.trim() === '' ? null : Number(pass);
  const rateN = Number(maxRate) / 100;
  const invalid = !(Number.isInteger(sampleN) && sampleN >= 1)
    ? 'Rollouts to probe must be a whole number ≥ 1.'
    : !Number.isInteger(Number(seed))
      ? 'The seed must be a whole number.'
      : passN !== null && !Number.isFinite(passN)
        ? 'The pass threshold must be a number (or empty).'
        : !(rateN >= 0 && rateN <= 1)
          ? 'The largest allowed rate must be from 0 to 100 %.'
          : null;
  const start = () =>
    void runStressTest(run, ds, {
      sample: Math.min(sampleN, ds.size),
      seed: Number(seed),
      pass: passN,
      maxRate: rateN,
      label: label?.binary ? { name: label.name, values: label.values } : null,
    });
  return (
    <div className="stress" role="group" aria-label="Stress test" tabIndex={0}>
      <p className="muted small">
        Each probe replaces the completion (a chat’s last assistant message) of every probed rollout; prompt, ground truth and fields stay. A replacement probe
        fools the reward when it passes the threshold more often than the allowed rate; a modification probe when it beats the rollout’s own reward more often.{' '}
        <code>pad</code> appends: “{PAD_TEXT}”
      </p>
      <div className="toolbar stress-controls">
        <label>
          Rollouts to probe <input type="number" min={1} max={ds.size} value={sample} onChange={(e) => setSample(e.target.value)} />
        </label>
        <label>
          Seed <input type="number" value={seed} onChange={(e) => setSeed(e.target.value)} />
        </label>
        <label>
          Pass threshold{' '}
          <input
            type="text"
            inputMode="decimal"
            placeholder={label?.binary ? `median where ${label.name}` : 'median reward'}
            value={pass}
            onChange={(e) => setPass(e.target.value)}
          />
        </label>
        <label>
          Largest allowed rate <input type="number" min={0} max={100} step={0.1} value={maxRate} onChange={(e) => setMaxRate(e.target.value)} /> %
        </label>
        {progress ? (
          <button type="button" onClick={cancelStressTest}>
            Cancel stress test
          </button>
        ) : (
          <button type="button" disabled={!runnable || invalid !== null} onClick={start}>
            Run stress test
          </button>
        )}
      </div>
      {!runnable ? <p className="muted">Press Run first: the stress test compares each probe with the rewards of the code in the editor.</p> : null}
      {invalid ? <p role="alert">{invalid}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      {progress ? (
        <p role="status" aria-label="Stress test progress">
          Probe {progress.index + 1} of {progress.of}: {probeLabel(progress.probe)} ·{' '}
          {progress.model ? `model ${progress.model} scoring the probed texts · ` : ''}
          {progress.done.toLocaleString('en-US')} of {progress.total.toLocaleString('en-US')} rollouts
        </p>
      ) : null}
      {shown ? <StressResults stress={shown} run={run} ds={ds} open={open} setOpen={setOpen} /> : null}
      <p className="muted small">
        For context, LLM judges fooled by these master keys (Zhao et al. 2025, “One Token to Fool LLM-as-a-Judge”): GPT-4o gave a false positive to 14.6 % of
        them averaged over the keys, and to 53.6 % for the worst key.
      </p>
    </div>
  );
}

function StressResults({
  stress,
  run,
  ds,
  open,
  setOpen,
}: {
  stress: StressResult;
  run: RunRecord;
  ds: Dataset;
  open: string | null;
  setOpen(p: string | null): void;
}) {
  const fooled = stress.figures.filter((f) => f.fooled);
  const source =
    stress.source === 'given' ? 'given' : stress.source === 'label' ? `median reward where ${stress.label} is true` : 'median reward of all rollouts';
  const figure = stress.figures.find((f) => f.name === open) ?? null;
  return (
    <>
      <p role="status" aria-label="Stress test verdict">
        {stress.rows.length.toLocaleString('en-US')} of {ds.size.toLocaleString('en-US')} rollouts probed · pass threshold {stress.threshold} ({source}) ·{' '}
        {fooled.length === 0 ? 'no probe fools the reward' : `fooled by ${fooled.length}: ${fooled.map((f) => probeLabel(f.name)).join(', ')}`}
        {stress.cancelled ? ' · cancelled' : ''}
      </p>
      <table className="stress-table" aria-label="Probes">
        <thead>
          <tr>
            <th scope="col">probe</th>
            <th scope="col">kind</th>
            <th scope="col">n</th>
            <th scope="col">rate</th>
            <th scope="col">95 % interval</th>
            <th scope="col">mean change</th>
            <th scope="col">verdict</th>
          </tr>
        </thead>
        <tbody>
          {stress.figures.map((f) => (
            <ProbeRow key={f.name} f={f} maxRate={stress.maxRate} open={open === f.name} onOpen={() => setOpen(open === f.name ? null : f.name)} />
          ))}
        </tbody>
      </table>
      {figure ? <FooledRollouts stress={stress} figure={figure} run={run} ds={ds} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function ProbeRow({ f, maxRate, open, onOpen }: { f: ProbeFigures; maxRate: number; open: boolean; onOpen(): void }) {
  const rate = f.kind === 'replace' ? f.passRate : f.winRate;
  const [lo, hi] = f.kind === 'replace' ? f.passCI : f.winCI;
  return (
    <tr className={f.fooled ? 'fooled' : undefined}>
      <th scope="row">
        <button type="button" aria-expanded={open} aria-label={`Rollouts fooled by ${probeLabel(f.name)}`} onClick={onOpen}>
          {probeLabel(f.name)}
        </button>
      </th>
      <td>{f.kind}</td>
      <td>{f.n.toLocaleString('en-US')}</td>
      <td>
        {f.kind === 'replace' ? 'passes' : 'wins'} {pct(rate)}
      </td>
      <td>
        <svg
          className="ci-bar"
          viewBox="0 0 100 10"
          width="60"
          height="10"
          preserveAspectRatio="none"
          role="img"
          aria-label={Number.isFinite(lo) ? `${pct(lo)} to ${pct(hi)}` : 'no interval'}
        >
          <rect x="0" y="4" width="100" height="2" className="ci-track" />
          {Number.isFinite(lo) ? <rect x={100 * lo} y="1" width={Math.max(1, 100 * (hi - lo))} height="8" className="ci-range" /> : null}
          <line x1={100 * maxRate} x2={100 * maxRate} y1="0" y2="10" className="ci-limit" />
        </svg>{' '}
        <span className="small muted">{Number.isFinite(lo) ? `${(100 * lo).toFixed(1)}–${(100 * hi).toFixed(1)} %` : ''}</span>
      </td>
      <td>{Number.isFinite(f.meanDelta) ? `${f.meanDelta >= 0 ? '+' : ''}${f.meanDelta.toPrecision(4)}` : '—'}</td>
      <td>{f.fooled ? <strong>fooled</strong> : 'ok'}</td>
    </tr>
  );
}

/** The rollouts a probe fooled (passed, or won for a modification), the original and the probe's text side by side. */
function FooledRollouts({ stress, figure, run, ds, onClose }: { stress: StressResult; figure: ProbeFigures; run: RunRecord; ds: Dataset; onClose(): void }) {
  const got = stress.scores[figure.name];
  const { scores, status } = run.result;
  const picked = useMemo(() => {
    const out: { j: number; row: number }[] = [];
    for (let j = 0; j < stress.rows.length && out.length < SHOWN; j++) {
      const row = stress.rows[j];
      if (got.status[j] !== RowStatus.Ok || status[row] !== RowStatus.Ok) continue;
      const p = got.scores[j];
      if (figure.kind === 'replace' ? p >= stress.threshold : p > scores[row]) out.push({ j, row });
    }
    return out;
  }, [stress, figure, got, scores, status]);
  const [ts, setTs] = useState<Map<number, Trajectory> | null>(null);
  useEffect(() => {
    let live = true;
    const need = [...new Set(picked.flatMap(({ j, row }) => [row, stress.donors[j]]))];
    void fetchTrajectories(ds, need).then((list) => live && list && setTs(new Map(list.map((t, k) => [need[k], t]))));
    return () => {
      live = false;
    };
  }, [picked, ds, stress]);
  const probe = probeByName(figure.name);
  return (
    <section className="pair-view" aria-label={`Rollouts fooled by ${probeLabel(figure.name)}`}>
      <div className="toolbar">
        <h3>
          {probeLabel(figure.name)}: {figure.kind === 'replace' ? figure.passes : figure.wins} of {figure.n} fooled
          {picked.length < (figure.kind === 'replace' ? figure.passes : figure.wins) ? ` (the first ${picked.length} shown)` : ''}
        </h3>
        <span className="spacer" />
        <button type="button" aria-label="Close fooled rollouts" onClick={onClose}>
          ×
        </button>
      </div>
      {picked.length === 0 ? <p className="muted">No rollout was fooled by this probe.</p> : null}
      {picked.map(({ j, row }) => {
        const t = ts?.get(row);
        const donor = ts?.get(stress.donors[j]);
        return (
          <div key={row} className="pair-sides" role="group" aria-label={`Rollout ${row}`}>
            <div className="pair-side">
              <h4>
                Rollout {row}: reward <span data-testid="own-reward">{scores[row]}</span>
              </h4>
              {t ? <LongText text={t.completion} className="pair-text" /> : null}
            </div>
            <div className="pair-side">
              <h4>
                Probe: reward <span data-testid="probe-reward">{got.scores[j]}</span>
              </h4>
              {t && probe ? <LongText text={applyProbe(probe, t, donor).completion} className="pair-text" /> : null}
            </div>
          </div>
        );
      })}
    </section>
  );
}
