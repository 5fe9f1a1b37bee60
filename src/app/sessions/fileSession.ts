import { useStudio } from '../../store';
import { awaitsRun } from '../../store/sessionSlice';
import { studio } from '../studio';
import { beginSession } from './open';
import { newId, session } from './state';

/**
 * The name of a session started by importing `fileName`: the file's name, which is how people tell their data apart
 * (pasted text has no name of its own).
 */
export function sessionNameFor(fileName: string): string {
  const name = fileName.trim();
  return name === '' || name === 'pasted text' ? 'Pasted text' : name;
}

/**
 * A new file was read: start a new session named after it, with the editor's code and that code's origin (code from a
 * link or a file still waits for Run). The session being left is saved as it was, runs included (beginSession).
 */
export function startFileSession(fileName: string): void {
  const before = useStudio.getState();
  const left = before.sessionName || 'Session';
  const runs = before.runs.filter((r) => r.datasetId === before.datasetId).length;
  const id = newId();
  const name = sessionNameFor(fileName);
  session.restoring = true;
  try {
    beginSession(id, name, before.origin);
    // The code came along, and with it the word of the models a link's reward needs.
    useStudio.getState().setLinkModels(before.linkModels);
    session.createdAt.set(id, Date.now());
  } finally {
    session.restoring = false;
  }
  const s = useStudio.getState();
  const code = awaitsRun(s.origin, s.language) ? 'came along; it came from a link or a file, so it waits for Run' : 'came along and runs on this file now';
  s.setSessionMessage({
    kind: 'info',
    text: `New session “${name}” for this file. “${left}” is kept in Sessions with its ${runs === 1 ? '1 run' : `${runs} runs`}. The code in the editor ${code}.`,
  });
}

/** Every file the user imports from now on starts a session of its own. */
export function installFileSessions(): void {
  studio.setNewFileHandler(startFileSession);
}
