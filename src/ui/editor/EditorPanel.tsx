import { lazy, Suspense, useCallback } from 'react';
import { TOKENIZER_IDS, TOKENIZERS, type TokenizerId } from '../../core/tokenize/tokenizers';
import { useStudio } from '../../store';
import { cancelRun, runReward, warmLanguage } from '../../app/studio';
import { PythonOptions, RunOutput } from './PythonOptions';
import { RunHistory } from './RunHistory';
import { RunProgressBar } from './RunProgressBar';

const CodeEditor = lazy(() => import('./CodeEditor'));

/** The reward editor: Monaco (loaded lazily), Run / Cancel, run progress and compile errors. */
export function EditorPanel() {
  const code = useStudio((s) => s.code);
  const setCode = useStudio((s) => s.setCode);
  // Only the progress bar follows progress; the panel re-renders when a run starts or ends.
  const running = useStudio((s) => s.running !== null);
  const runError = useStudio((s) => s.runError);
  const hasData = useStudio((s) => s.datasetId !== null);
  const timeLimitMs = useStudio((s) => s.timeLimitMs);
  const setTimeLimitMs = useStudio((s) => s.setTimeLimitMs);
  const tokenizer = useStudio((s) => s.tokenizer);
  const language = useStudio((s) => s.language);
  const setLanguage = useStudio((s) => s.setLanguage);
  const setTokenizer = useStudio((s) => s.setTokenizer);
  const run = useCallback(() => void runReward(), []);

  return (
    <section className="panel editor-panel" aria-label="Reward editor">
      <div className="toolbar">
        <h2>Reward</h2>
        <select
          aria-label="Language"
          value={language}
          onChange={(e) => {
            const lang = e.target.value as 'ts' | 'py';
            setLanguage(lang);
            warmLanguage(lang);
          }}
          disabled={running}
        >
          <option value="ts">TypeScript</option>
          <option value="py">Python</option>
        </select>
        <span className="muted">
          {language === 'ts' ? <code>export default function reward(t, ctx)</code> : <>TRL, verl or OpenRLHF signature · standard library only</>}
        </span>
        <span className="spacer" />
        {running ? (
          <button type="button" onClick={cancelRun} className="danger">
            Cancel
          </button>
        ) : null}
        <button type="button" className="primary" onClick={run} disabled={!hasData} title="Run on every rollout (Ctrl+Enter)">
          Run
        </button>
      </div>
      {language === 'py' ? <PythonOptions /> : null}
      <div className="toolbar secondary">
        <RunHistory />
        <span className="spacer" />
        <label>
          Tokenizer{' '}
          <select
            aria-label="Tokenizer"
            value={tokenizer}
            onChange={(e) => setTokenizer(e.target.value as TokenizerId)}
            title="Used by ctx.tokenCount and token lengths"
          >
            {TOKENIZER_IDS.map((id) => (
              <option key={id} value={id}>
                {TOKENIZERS[id].label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Time limit{' '}
          <input
            type="number"
            className="narrow"
            aria-label="Time limit per row (ms)"
            min={10}
            step={100}
            value={timeLimitMs}
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= 10) setTimeLimitMs(v);
            }}
          />{' '}
          ms
        </label>
      </div>
      {running ? <RunProgressBar /> : null}
      {runError ? (
        <div role="alert" className="error-banner">
          {runError.compile ? `Reward code does not compile${runError.line ? ` (line ${runError.line})` : ''}` : 'The run failed'}: {runError.message}
        </div>
      ) : null}
      <RunOutput />
      <div className="editor-host">
        <Suspense fallback={<textarea aria-label="Reward code" className="editor-fallback" value={code} onChange={(e) => setCode(e.target.value)} />}>
          <CodeEditor value={code} language={language} onChange={setCode} onRun={run} />
        </Suspense>
      </div>
    </section>
  );
}
