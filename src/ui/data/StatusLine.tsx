import { useStudio } from '../../store';

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;

/** "800 trajectories · 200 groups", with the file name and the lines that failed to load. */
export function StatusLine() {
  const rows = useStudio((s) => s.rowCount);
  const groups = useStudio((s) => s.groupCount);
  const name = useStudio((s) => s.datasetName);
  const issues = useStudio((s) => s.issues.length);
  const hasData = useStudio((s) => s.datasetId !== null);
  if (!hasData) return <span className="status-line muted">No data loaded</span>;
  return (
    <span className="status-line" role="status" aria-label="Dataset status">
      <strong>
        {plural(rows, 'trajectory', 'trajectories')} · {plural(groups, 'group', 'groups')}
      </strong>
      <span className="muted"> · {name}</span>
      {issues > 0 ? <span className="warn"> · {fmt(issues)} lines skipped</span> : null}
    </span>
  );
}
