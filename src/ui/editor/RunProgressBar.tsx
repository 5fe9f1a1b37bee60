interface Props {
  done: number;
  total: number;
  rowsPerSecond: number;
}

export function RunProgressBar({ done, total, rowsPerSecond }: Props) {
  return (
    <div className="progress-row">
      <progress aria-label="Run progress" max={Math.max(1, total)} value={done} />
      <span className="muted">
        {done.toLocaleString('en-US')} / {total.toLocaleString('en-US')} rows · {Math.round(rowsPerSecond).toLocaleString('en-US')} rows/s
      </span>
    </div>
  );
}
