import type * as Monaco from 'monaco-editor';

/**
 * As in VS Code, Escape then Tab moves the focus out of the editor (Tab alone indents; Ctrl+M, Monaco's own
 * binding, toggles Tab moving the focus for good). Escape turns on tab focus mode for the next key only.
 */
export function escapeThenTabLeaves(editor: Monaco.editor.IStandaloneCodeEditor, monaco: typeof Monaco): void {
  const mode = monaco.editor.EditorOption.tabFocusMode;
  let armed = false;
  const disarm = () => {
    if (!armed) return;
    armed = false;
    editor.updateOptions({ tabFocusMode: false });
  };
  editor.onKeyDown((e) => {
    if (e.keyCode === monaco.KeyCode.Escape) {
      if (!editor.getOption(mode)) {
        armed = true;
        editor.updateOptions({ tabFocusMode: true });
      }
    } else if (e.keyCode !== monaco.KeyCode.Tab && e.keyCode !== monaco.KeyCode.Shift) {
      disarm();
    }
  });
  editor.onDidBlurEditorText(disarm);
}
