import { useState } from 'react';
import type { ColumnMapping } from '../../core/formats/types';
import { importBlob, lastImportedSource } from '../../app/studio';
import { Dialog } from '../layout/Dialog';

const ROLES: { key: keyof ColumnMapping; label: string; required: boolean }[] = [
  { key: 'prompt', label: 'Prompt', required: true },
  { key: 'completion', label: 'Completion', required: true },
  { key: 'group', label: 'Group', required: false },
  { key: 'groundTruth', label: 'Ground truth', required: false },
  { key: 'step', label: 'Step', required: false },
];

/** Map the columns of an unrecognised file to prompt / completion / group / ground truth / step. */
export function MappingDialog({ columns, onClose }: { columns: string[]; onClose(): void }) {
  const guess = (words: string[]) => columns.find((c) => words.some((w) => c.toLowerCase().includes(w))) ?? '';
  const [m, setM] = useState<Record<keyof ColumnMapping, string>>({
    prompt: guess(['prompt', 'question', 'query', 'instruction', 'input']),
    completion: guess(['completion', 'response', 'answer', 'output', 'generation']),
    group: '',
    groundTruth: guess(['ground_truth', 'label', 'target', 'reference', 'solution']),
    step: guess(['step']),
  });
  const ready = m.prompt && m.completion;
  const submit = () => {
    const src = lastImportedSource();
    if (!src || !ready) return;
    const mapping: ColumnMapping = { prompt: m.prompt, completion: m.completion };
    if (m.group) mapping.group = m.group;
    if (m.groundTruth) mapping.groundTruth = m.groundTruth;
    if (m.step) mapping.step = m.step;
    onClose();
    void importBlob(src.blob, src.name, { format: 'mapped', mapping, parts: src.parts });
  };
  return (
    <Dialog title="Map columns" onClose={onClose}>
      <p className="muted">The file's columns were not recognised. Say which column holds what.</p>
      <div className="mapping-grid">
        {ROLES.map((r) => (
          <label key={r.key}>
            <span>
              {r.label}
              {r.required ? ' *' : ''}
            </span>
            <select aria-label={`${r.label} column`} value={m[r.key]} onChange={(e) => setM({ ...m, [r.key]: e.target.value })}>
              <option value="">{r.required ? '— choose —' : '— none —'}</option>
              {columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!ready} onClick={submit}>
          Import with mapping
        </button>
      </div>
    </Dialog>
  );
}
