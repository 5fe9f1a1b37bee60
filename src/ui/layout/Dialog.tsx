import { useEffect, useId, type ReactNode } from 'react';

/** A modal dialog with a title, closed by Escape or its Close control. */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  const id = useId();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby={id} className={wide ? 'dialog wide' : 'dialog'}>
        <h2 id={id}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
