import type { SessionDoc } from '../../core/session/schema';
import { useStudio } from '../../store';
import * as db from '../../runtime/sessionDb';
import { loadDemo } from '../studio';
import { installAutosave, saveNow } from './autosave';
import { openLink } from './file';
import { installFileSessions } from './fileSession';
import { beginSession, newSession, openCopy, openSession } from './open';
import { openUrlData } from './share';
import { currentIdFromStorage, newId, session } from './state';
import { claimSession, tabSessionId } from './tabs';

/**
 * First thing the page does: open a share link (`#s=`) or a data URL (`?data=`) as a new session, else reopen this
 * tab's session (after a reload) or the session of the last visit, else start one on the demo. A session that another
 * tab is working on opens as a copy (tabs.ts).
 */
export async function startStudio(): Promise<void> {
  installAutosave();
  installFileSessions();
  // A share link pasted into the address bar of an open studio changes only the fragment: open it too.
  window.addEventListener('hashchange', () => {
    const h = location.hash;
    if (!h.startsWith('#s=')) return;
    void openLink(h.slice(3)).finally(() => history.replaceState(null, '', location.pathname + location.search));
  });
  const hash = location.hash;
  const params = new URLSearchParams(location.search);
  const dataUrl = params.get('data');
  // The link has done its job once opened and saved: a reload then reopens the saved session instead of opening the
  // link again. Not before: a reload while the link's data is still being put in place and saved opens the link again.
  const dropLink = () => {
    if (!hash.startsWith('#s=') && !dataUrl) return;
    params.delete('data');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
  };
  if (hash.startsWith('#s=') && (await openLink(hash.slice(3)).finally(dropLink))) return;
  if (dataUrl) {
    // A new session with the code in the editor kept as it is, on the URL's data. That code keeps its origin: code
    // that came from a link or a session file (in this page or, through local storage, before a reload) waits for Run.
    beginSession(newId(), decodeURIComponent(dataUrl.split('/').pop() || 'Data from a URL'), useStudio.getState().origin);
    session.createdAt.set(useStudio.getState().sessionId!, Date.now());
    if (!(await openUrlData(dataUrl))) await loadDemo({ run: true });
    await saveNow(); // at once: a reload straight after opening must find this session
    dropLink();
    return;
  }
  dropLink();
  let last: SessionDoc | null = null;
  const own = tabSessionId();
  let problem: string | null = null;
  try {
    // This tab's own session first (a reload), else the one last opened in any tab.
    for (const id of new Set([own, currentIdFromStorage()])) {
      const p = id ? await db.getSession(id) : null;
      if (p?.ok) {
        last = p.value;
        break;
      }
      if (p && !p.ok) problem ??= p.message;
    }
    if (!last && problem)
      useStudio.getState().setSessionMessage({ kind: 'error', text: `The last session could not be reopened: ${problem}. A new one was started.` });
  } catch (e) {
    console.warn('IndexedDB unavailable: sessions are not saved', e);
  }
  // A reloading tab's old page may still hold its session for a moment: wait for it (another tab would hold it for good).
  if (last && (await claimSession(last.id, last.id === own ? 3000 : 0))) await openSession(last, { preferLocalCode: true });
  else if (last) await openCopy(last);
  else await newSession({ keepCode: true });
}
