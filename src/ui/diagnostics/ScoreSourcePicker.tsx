import { useStudio } from '../../store';

/** "Scores": the diagnostics show the reward run, or a loaded reward model's score as if it were the reward. */
export function ScoreSourcePicker() {
  const models = useStudio((s) => s.models);
  const source = useStudio((s) => s.diagSource);
  const setSource = useStudio((s) => s.setDiagSource);
  if (models.length === 0) return null;
  return (
    <label className="inline-field">
      Scores
      <select aria-label="Scores shown" value={source ?? ''} onChange={(e) => setSource(e.target.value || null)}>
        <option value="">Reward run</option>
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            Model: {m.id}
          </option>
        ))}
      </select>
    </label>
  );
}
