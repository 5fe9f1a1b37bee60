import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { escapeThenTabLeaves } from './escapeThenTab';
import { monaco } from './monacoSetup';

interface Props {
  value: string;
  language: 'ts' | 'py';
  onChange(code: string): void;
  onRun(): void;
}

/** Monaco with the studio's types; Ctrl/Cmd+Enter runs. Loaded lazily (Monaco is ~4 MB). */
export default function CodeEditor({ value, language, onChange, onRun }: Props) {
  const runRef = useRef(onRun);
  useEffect(() => {
    runRef.current = onRun;
  });
  const onMount: OnMount = (editor) => {
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => runRef.current());
    escapeThenTabLeaves(editor, monaco);
  };
  return (
    <Editor
      height="100%"
      // One model per language: switching keeps each one's undo history.
      language={language === 'py' ? 'python' : 'typescript'}
      path={language === 'py' ? 'file:///reward.py' : 'file:///reward.ts'}
      value={value}
      onChange={(v) => onChange(v ?? '')}
      onMount={onMount}
      options={{
        minimap: { enabled: false },
        fontSize: 13,
        scrollBeyondLastLine: false,
        // Room for code rather than margins: a line fits without a horizontal scrollbar as soon as its text does
        // (Monaco's defaults scroll 5 columns past the longest line, keep 5 digits of line numbers and wider bars).
        scrollBeyondLastColumn: 0,
        lineNumbersMinChars: 3,
        lineDecorationsWidth: 6,
        scrollbar: { verticalScrollbarSize: 10 },
        automaticLayout: true,
        tabSize: language === 'py' ? 4 : 2,
        ariaLabel: 'Reward code',
        // Monaco dims the last line number on Linux (contrast 1.75:1, an axe failure); show it like the others.
        renderFinalNewline: 'on',
      }}
    />
  );
}
