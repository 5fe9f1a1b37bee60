/**
 * A run's name and note, written by the user and carried in sessions, session files and share links: text from
 * someone else once shared, so it is bounded and kept free of characters that could hide or reorder what is shown.
 */

export const RUN_NAME_MAX = 80;
export const RUN_NOTE_MAX = 2000;

/** C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex
const UNSAFE_NOTE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** A name is one line: tab and newline are unsafe there too. */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Whether text holds only characters acceptable in a run's name (`kind: 'name'`) or note; the lengths are checked apart. */
export function safeRunText(text: string, kind: 'name' | 'note'): boolean {
  // search, not test: a /g pattern's test() carries lastIndex over from one call to the next.
  return text.search(kind === 'name' ? UNSAFE_NAME : UNSAFE_NOTE) < 0;
}

/** What the user typed, made acceptable: unsafe characters dropped (a name's line breaks become spaces), cut to the limit. */
export function cleanRunText(text: string, kind: 'name' | 'note'): string {
  const t = kind === 'name' ? text.replace(/[\t\r\n]+/g, ' ').replace(UNSAFE_NAME, '') : text.replace(/\r\n?/g, '\n').replace(UNSAFE_NOTE, '');
  return t.slice(0, kind === 'name' ? RUN_NAME_MAX : RUN_NOTE_MAX);
}
