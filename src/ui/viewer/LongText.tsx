import { useState } from 'react';

/** Characters of a long text drawn at first: a 30 MB completion would take seconds to lay out. */
export const SHOWN_AT_FIRST = 20_000;

/** A `<pre>` of text that shows its first part and a button for the rest. */
export function LongText({ text, className }: { text: string; className?: string }) {
  const [all, setAll] = useState(false);
  if (all || text.length <= SHOWN_AT_FIRST) return <pre className={className}>{text}</pre>;
  return (
    <>
      <pre className={className}>{text.slice(0, SHOWN_AT_FIRST)}</pre>
      <button type="button" onClick={() => setAll(true)}>
        Show all ({text.length.toLocaleString('en-US')} characters)
      </button>
    </>
  );
}
