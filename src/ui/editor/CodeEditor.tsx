import Editor, { type OnMount } from '@monaco-editor/react';
import { useRef } from 'react';
import { monaco } from './monacoSetup';

interface Props {
  value: string;
  onChange(code: string): void;
  onRun(): void;
}

/** Monaco with the studio's types; Ctrl/Cmd+Enter runs. Loaded lazily (Monaco is ~4 MB). */
export default function CodeEditor({ value, onChange, onRun }: Props) {
  const runRef = useRef(onRun);
  runRef.current = onRun;
  const onMount: OnMount = (editor) => {
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => runRef.current());
  };
  return (
    <Editor
      height="100%"
      defaultLanguage="typescript"
      path="file:///reward.ts"
      value={value}
      onChange={(v) => onChange(v ?? '')}
      onMount={onMount}
      options={{ minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, automaticLayout: true, tabSize: 2, ariaLabel: 'Reward code' }}
    />
  );
}
