/** What a tab shows while its figures are computed in the stats worker (or why they failed). */
export function Computing({ rows, error }: { rows: number; error?: string | null }) {
  if (error) return <p className="muted empty-chart">Statistics failed: {error}</p>;
  return (
    <p className="muted empty-chart" role="status" aria-busy="true">
      Computing the statistics of {rows.toLocaleString('en-US')} rollouts…
    </p>
  );
}
