import { ENSEMBLE_KINDS, ensembleSourceId } from '../../app/ensemble';
import { useStudio } from '../../store';

/** "Scores": the diagnostics show the reward run, a loaded reward model's score, or the models' ensemble mean / min / std, as if it were the reward. */
export function ScoreSourcePicker() {
  const models = useStudio((s) => s.models);
  const source = useStudio((s) => s.diagSource);
  const setSource = useStudio((s) => s.setDiagSource);
  const datasetId = useStudio((s) => s.datasetId);
  if (models.length === 0) return null;
  // The ensemble's columns once two models have scored the loaded rollouts (app/ensemble).
  const ensemble = models.filter((m) => m.scores?.datasetId === datasetId).length >= 2;
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
        {ensemble
          ? ENSEMBLE_KINDS.map((k) => (
              <option key={k.id} value={ensembleSourceId(k.id)}>
                {k.label}
              </option>
            ))
          : null}
      </select>
    </label>
  );
}
