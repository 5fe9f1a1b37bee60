import { useStudio } from '../../store';

/** Rows done, total and rows/s of the run in flight; the only component that re-renders on progress. */
export function RunProgressBar() {
  const p = useStudio((s) => s.running);
  const python = useStudio((s) => s.language === 'py');
  if (!p) return null;
  const { done, total, rowsPerSecond } = p;
  if (python && done === 0) {
    return (
      <div className="progress-row" role="status">
        <progress aria-label="Run progress" />
        <span className="muted">Loading Python… (the interpreter starts in each worker on the first Python run)</span>
      </div>
    );
  }
  return (
    <div className="progress-row">
      <progress aria-label="Run progress" max={Math.max(1, total)} value={done} />
      <span className="muted">
        {done.toLocaleString('en-US')} / {total.toLocaleString('en-US')} rows · {Math.round(rowsPerSecond).toLocaleString('en-US')} rows/s
      </span>
    </div>
  );
}
