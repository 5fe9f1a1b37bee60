import { importStream } from '../formats';
import type { ByteSource, Detection, ImportOptions } from '../formats/types';
import type { ParseIssue, Trajectory } from '../trajectory';

/** Read a whole file into trajectories (reward workers and the CLI; the UI streams with importStream). */
export async function loadAll(source: ByteSource, opts: ImportOptions = {}): Promise<{ rows: Trajectory[]; issues: ParseIssue[]; detection: Detection }> {
  const rows: Trajectory[] = [];
  const issues: ParseIssue[] = [];
  let detection: Detection | null = null;
  for await (const e of importStream(source, opts)) {
    if (e.type === 'meta') detection = e.detection;
    else if (e.type === 'rows') {
      for (const r of e.rows) rows.push(r);
      for (const i of e.issues) issues.push(i);
    }
  }
  if (!detection) throw new Error(`no format detected for ${source.name}`);
  return { rows, issues, detection };
}
