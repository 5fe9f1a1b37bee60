import { useState } from 'react';
import { normaliseShapes, SHAPE_NAMES, SHAPES, type ShapeName, type ShapeSpec } from '../../core/shaping/spec';
import { useStudio } from '../../store';

/** A transform as the form holds it: option values as typed (strings), checked by normaliseShapes on each edit. */
type Draft = Record<string, string> & { name: string };

/** Option values a new transform starts with (the user edits them in place). */
const STARTS: Record<ShapeName, Record<string, string>> = {
  'dapo-overlong': { max: '1024', cache: '256', unit: 'tokens' },
  'kimi-length': { unit: 'tokens' },
  par: { ref: 'median' },
  clip: { min: '-1', max: '1' },
  scale: { by: '1' },
  center: { over: 'batch' },
  'step-clip': { eta: '0.5' },
  'step-delta': { last: 'keep' },
  'step-sum': { weight: '1' },
};
const CHOICES: Record<string, string[]> = { unit: ['tokens', 'chars'], ref: ['median', 'first', 'column'], over: ['batch', 'group'], last: ['keep', 'drop'] };

const toDraft = (list: readonly ShapeSpec[]): Draft[] =>
  list.map((s) => {
    const d: Draft = { name: s.name };
    for (const [k, v] of Object.entries(s)) if (k !== 'name' && v !== null) d[k] = String(v);
    return d;
  });
/** The draft as loose input: empty fields left out, so a default applies (and a required one is named missing). */
const loose = (draft: Draft[]) => draft.map((d) => Object.fromEntries(Object.entries(d).filter(([, v]) => v.trim() !== '')));

/**
 * The Shaping list: add, edit, reorder, remove. Every edit is normalised at once; a valid list goes to the store (and
 * so into the session and links), an invalid one is shown with the reason and leaves the last valid list in place.
 */
export function TransformList() {
  const shaping = useStudio((s) => s.shaping);
  const setShaping = useStudio((s) => s.setShaping);
  const [draft, setDraft] = useState<Draft[]>(() => toDraft(shaping));
  const [adding, setAdding] = useState<ShapeName>('dapo-overlong');
  // A list put in place from outside (a session opened, a link) replaces the form's draft (adjusted during render,
  // as React advises for state derived from a changed value).
  const [seen, setSeen] = useState(shaping);
  if (seen !== shaping) {
    setSeen(shaping);
    const n = normaliseShapes(loose(draft));
    if (!(n.ok && JSON.stringify(n.value) === JSON.stringify(shaping))) setDraft(toDraft(shaping));
  }
  const checked = normaliseShapes(loose(draft));
  const edit = (next: Draft[]) => {
    setDraft(next);
    const n = normaliseShapes(loose(next));
    if (n.ok) setShaping(n.value);
  };
  const move = (i: number, by: number) => {
    const next = [...draft];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    edit(next);
  };
  return (
    <div className="shaping-list">
      <ol aria-label="Shaping transforms">
        {draft.map((d, i) => {
          const info = SHAPES[d.name as ShapeName];
          const label = `${i + 1}. ${d.name}`;
          return (
            <li key={i}>
              <fieldset>
                <legend>{label}</legend>
                {Object.keys(info.options).map((k) =>
                  CHOICES[k] ? (
                    <label key={k}>
                      {k}{' '}
                      <select
                        aria-label={`${label} ${k}`}
                        value={d[k] ?? CHOICES[k][0]}
                        onChange={(e) => edit(draft.map((x, j) => (j === i ? { ...x, [k]: e.target.value } : x)))}
                      >
                        {CHOICES[k].map((c) => (
                          <option key={c} value={c}>
                            {c}
                          </option>
                        ))}
                      </select>
                    </label>
                  ) : (
                    <label key={k}>
                      {k}{' '}
                      <input
                        type="text"
                        size={8}
                        aria-label={`${label} ${k}`}
                        placeholder={info.options[k]}
                        value={d[k] ?? ''}
                        onChange={(e) => edit(draft.map((x, j) => (j === i ? { ...x, [k]: e.target.value } : x)))}
                      />
                    </label>
                  ),
                )}
                <span className="shaping-buttons">
                  <button type="button" aria-label={`Move ${label} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button type="button" aria-label={`Move ${label} down`} disabled={i === draft.length - 1} onClick={() => move(i, 1)}>
                    ↓
                  </button>
                  <button type="button" aria-label={`Remove ${label}`} onClick={() => edit(draft.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </span>
                <p className="muted small shaping-formula">
                  <code>{info.formula}</code>
                  <br />
                  Source: {info.source}
                </p>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {!checked.ok ? (
        <p role="alert" className="error small">
          {checked.message} — the last valid list stays in use.
        </p>
      ) : null}
      <div className="shaping-add">
        <select aria-label="Transform to add" value={adding} onChange={(e) => setAdding(e.target.value as ShapeName)}>
          {SHAPE_NAMES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>{' '}
        <button type="button" onClick={() => edit([...draft, { name: adding, ...STARTS[adding] }])}>
          Add transform
        </button>
      </div>
    </div>
  );
}
