import { useEffect, useState } from 'react';
import { importBlob } from '../../app/studio';
import { filesOfEntry, importFiles } from '../../app/importFiles';
import { useStudio } from '../../store';
import { importSessionFile } from '../../app/sessions/file';
import { SESSION_FILE_SUFFIX } from '../../core/session/sessionFile';

function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable || !!el.closest?.('.monaco-editor'));
}

/**
 * Drag-and-drop a file anywhere on the page to import it (a folder or several files: one dataset of many files), and paste (Ctrl/Cmd+V outside an editor) to import
 * the clipboard's file or text.
 */
export function DropZone() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overFn = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setOver(false);
      const f = e.dataTransfer?.files?.[0];
      if (!f) return;
      e.preventDefault();
      // A folder, or several files: one dataset of many files (entries must be taken before the handler returns).
      const entries = [...(e.dataTransfer?.items ?? [])].map((i) => i.webkitGetAsEntry?.() ?? null);
      const files = [...(e.dataTransfer?.files ?? [])];
      if (entries.some((x) => x?.isDirectory)) {
        const all = entries.filter((x): x is FileSystemEntry => x !== null);
        void Promise.all(all.map((x) => filesOfEntry(x)))
          .then((lists) => importFiles(lists.flat()))
          .catch((err: unknown) => {
            const message = `The dropped folder could not be read: ${err instanceof Error ? err.message : String(err)}`;
            useStudio.getState().setImportError({ code: 'unreadable', message, fileName: all[0]?.name ?? 'folder' });
          });
        return;
      }
      if (files.length > 1) return void importFiles(files.map((x) => ({ blob: x, path: x.name })));
      // A session file opens as a session; anything else is rollouts.
      if (f.name.endsWith(SESSION_FILE_SUFFIX)) void importSessionFile(f, f.name);
      else void importBlob(f, f.name);
    };
    const paste = (e: ClipboardEvent) => {
      if (isEditable(e.target)) return;
      const f = e.clipboardData?.files?.[0];
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (f) void importBlob(f, f.name);
      else if (text.trim()) void importBlob(new Blob([text], { type: 'text/plain' }), 'pasted text');
      else return;
      e.preventDefault();
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overFn);
    window.addEventListener('drop', drop);
    window.addEventListener('paste', paste);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('drop', drop);
      window.removeEventListener('paste', paste);
    };
  }, []);
  return over ? (
    <div className="drop-overlay" aria-hidden="true">
      Drop to import trajectories
    </div>
  ) : null;
}
