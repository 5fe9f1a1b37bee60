import { useRef, type ReactNode } from 'react';

/**
 * A button that opens the file chooser (the file input itself stays hidden, so the button is what screen readers
 * and tests find, by its name). The input is cleared after each pick, so the same file can be picked again.
 */
export function FilePickButton({ children, accept, onFile, className, testId }: { children: ReactNode; accept?: string; onFile(f: File): void; className?: string; testId?: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid={testId}
        accept={accept}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = '';
        }}
      />
      <button type="button" className={className} onClick={() => input.current?.click()}>
        {children}
      </button>
    </>
  );
}
