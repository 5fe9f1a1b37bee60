import { useState } from 'react';
import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';

/** No row has this group index: the filter for a group label the data does not have. */
const NO_GROUP = -1;

/**
 * One group, named by the file's own group value (issue 21, item 4: "200", not its position), or by its "p-…" label
 * for prompt-text groups. The store keeps the dense index the table filters on.
 */
export function GroupFilter() {
  const datasetId = useStudio((s) => s.datasetId);
  const group = useStudio((s) => s.groupFilter);
  const setGroup = useStudio((s) => s.setGroupFilter);
  const ds = getDataset(datasetId);
  // What was typed, kept while it names the group in force (or none); a group picked elsewhere shows its label.
  const [typed, setTyped] = useState<{ text: string; group: number | null } | null>(null);
  const text = typed && typed.group === group ? typed.text : group !== null && group >= 0 && ds ? (ds.groupLabels[group] ?? '') : '';
  const change = (value: string) => {
    const key = value.trim();
    // The first group with that label (labels are unique, see `groupLabels`): a scan when typed, a few ms over a
    // million rows' groups, where a label → index map built for each new dataset took 300 ms at the end of an import.
    const g = key === '' ? null : ds ? ds.groupLabels.indexOf(key) : NO_GROUP;
    setTyped({ text: value, group: g });
    setGroup(g);
  };
  return (
    <label>
      Group{' '}
      <input
        type="text"
        aria-label="Filter by group"
        placeholder="all"
        value={text}
        onChange={(e) => change(e.target.value)}
        className="narrow"
        aria-invalid={group === NO_GROUP}
      />
      {group === NO_GROUP ? (
        <span role="status" className="error-text">
          {' '}
          no group “{text.trim().slice(0, 60)}”
        </span>
      ) : null}
    </label>
  );
}
