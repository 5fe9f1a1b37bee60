import { useRef, type ReactNode } from 'react';

/**
 * A button that opens the file chooser (the file input itself stays hidden, so the button is what screen readers
 * and tests find, by its name). The input is cleared after each pick, so the same file can be picked again.
 * `onFiles` with `multiple` or `directory` receives every picked file (a folder pick: with `webkitRelativePath`).
 */
export function FilePickButton({
  children,
  accept,
  onFile,
  onFiles,
  multiple,
  directory,
  className,
  testId,
  disabled,
}: {
  children: ReactNode;
  accept?: string;
  onFile?(f: File): void;
  onFiles?(f: File[]): void;
  multiple?: boolean;
  directory?: boolean;
  className?: string;
  testId?: string;
  disabled?: boolean;
}) {
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
        multiple={multiple || directory}
        {...(directory ? { webkitdirectory: '' } : {})}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length && onFiles) onFiles(files);
          else if (files[0] && onFile) onFile(files[0]);
          e.target.value = '';
        }}
      />
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        {children}
      </button>
    </>
  );
}
