import type { ExportTarget } from '../../core/python/exportReward';
import { exportPython } from '../../app/studio';
import { defaultReason, defaultRewardFunction, describeChoice } from '../../core/python/choose';
import { isPerRow, KIND_DESCRIPTIONS } from '../../core/python/signatures';
import { TOKENIZERS } from '../../core/tokenize/tokenizers';
import { useStudio } from '../../store';
import { useCurrentRun } from '../charts/useCurrentRun';

/** Python: which of the code's reward functions to call (the studio finds them on Run), and rows per batched call. */
export function PythonOptions() {
  const candidates = useStudio((s) => s.pyCandidates);
  const picked = useStudio((s) => s.pyFunction);
  const setPicked = useStudio((s) => s.setPyFunction);
  const batch = useStudio((s) => s.pyBatchSize);
  const setBatch = useStudio((s) => s.setPyBatchSize);
  const tokenizer = useStudio((s) => s.tokenizer);
  const shaping = useStudio((s) => s.shaping);
  const byName = candidates?.find((c) => c.name === picked);
  const chosen = byName ?? (candidates ? defaultRewardFunction(candidates) : undefined) ?? null;
  // Why this one, when the studio picked it among several (the user's pick needs no reason).
  const why = chosen && !byName && candidates ? defaultReason(chosen, candidates) : null;
  return (
    <div className="toolbar secondary">
      {candidates && candidates.length > 0 ? (
        <label>
          Reward function{' '}
          <select aria-label="Reward function" value={chosen?.name ?? ''} onChange={(e) => setPicked(e.target.value)}>
            {candidates.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} · {c.kind} (line {c.line}
                {c.whenRun ? ', found when the module ran' : ''})
              </option>
            ))}
          </select>
        </label>
      ) : (
        <span className="muted">Run finds the reward functions in the code; pick one here when there are several.</span>
      )}
      {chosen ? (
        <span className="muted small" aria-label="Reward function choice" title={KIND_DESCRIPTIONS[chosen.kind]}>
          {describeChoice(chosen)}
          {why ? ` (default: ${why})` : ''} · {KIND_DESCRIPTIONS[chosen.kind]}
        </span>
      ) : null}
      {chosen?.kind === 'trl' ? (
        // TRL hands every reward the generated token ids: here they are the chosen tokenizer's (docs/completion-ids.md).
        <span className="muted small" aria-label="completion_ids">
          completion_ids: {TOKENIZERS[tokenizer].label} token ids of each completion (no special tokens; change under Tokenizer)
        </span>
      ) : null}
      {chosen ? (
        <>
          <button type="button" onClick={() => void download('trl')} title="Download reward.py ready for GRPOTrainer(reward_funcs=[...])">
            Export for TRL
          </button>
          <button type="button" onClick={() => void download('verl')} title="Download reward.py ready for custom_reward_function.path">
            Export for verl
          </button>
          {shaping.length ? <span className="muted small">with the Shaping list ({shaping.length})</span> : null}
        </>
      ) : null}
      {chosen && !isPerRow(chosen.kind) ? (
        <label>
          Rows per call{' '}
          <input
            type="number"
            className="narrow"
            aria-label="Rows per call"
            min={1}
            value={batch}
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isInteger(v) && v >= 1) setBatch(v);
            }}
          />
        </label>
      ) : null}
    </div>
  );
}

/** Save the reward as it is now as reward.py for a trainer (a local download: nothing leaves the machine). */
async function download(target: ExportTarget): Promise<void> {
  const r = await exportPython(target);
  if (!r.ok) {
    useStudio.getState().setRunError({ message: `Export for ${target === 'trl' ? 'TRL' : 'verl'}: ${r.message}`, compile: false });
    return;
  }
  const url = URL.createObjectURL(new Blob([r.text], { type: 'text/x-python' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'reward.py';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What the current Python run printed, in row order. */
export function RunOutput() {
  const run = useCurrentRun();
  const out = run?.result.stdout;
  if (!out) return null;
  return (
    <details className="run-output">
      <summary>Output of run #{run.id} (print)</summary>
      <pre aria-label="Run output">{out}</pre>
    </details>
  );
}
