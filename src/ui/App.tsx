import { useRef, useState } from 'react';
import { useStudio } from '../store';
import { DropZone } from './data/DropZone';
import { FormatPicker } from './data/FormatPicker';
import { ImportBar } from './data/ImportBar';
import { ImportMessages } from './data/ImportMessages';
import { MappingDialog } from './data/MappingDialog';
import { RolloutTable } from './data/RolloutTable';
import { StatusLine } from './data/StatusLine';
import { DiagnosticsPanel } from './diagnostics/DiagnosticsPanel';
import { EditorPanel } from './editor/EditorPanel';
import { PanelBoundary } from './layout/PanelBoundary';
import { Splitter } from './layout/Splitter';
import { PANE_MIN } from '../core/layout/paneSizes';
import { usePaneLayout } from './layout/usePaneLayout';
import { ModelsPanel } from './models/ModelsPanel';
import { RolloutDetail } from './viewer/RolloutDetail';
import { SessionControls } from './session/SessionControls';
import { SessionNotices } from './session/SessionNotices';

export function App() {
  const importError = useStudio((s) => s.importError);
  const setImportError = useStudio((s) => s.setImportError);
  const detectionColumns = useStudio((s) => s.detection?.columns);
  const [mapping, setMapping] = useState(false);
  const needsMapping = importError?.code === 'needs-mapping';
  const mappingColumns = needsMapping ? (importError.detail?.columns ?? []) : (detectionColumns ?? []);
  const workspace = useRef<HTMLElement>(null);
  const results = useRef<HTMLDivElement>(null);
  const { sizes, set, editorMax, diagMax } = usePaneLayout(workspace, results);

  return (
    <div className="app">
      <header className="app-header">
        <h1>Reward Studio</h1>
        <ImportBar />
        <StatusLine />
        <span className="spacer" />
        <FormatPicker onMapColumns={() => setMapping(true)} />
        <SessionControls />
      </header>
      <PanelBoundary name="Notices">
        <SessionNotices />
        <ImportMessages />
      </PanelBoundary>
      <main className="workspace" ref={workspace} style={{ gridTemplateColumns: `${sizes.editorCollapsed ? 0 : sizes.editorWidth}px 10px minmax(0, 1fr)` }}>
        {/* A hidden pane stays mounted (visibility only), so Monaco keeps its undo history and the charts their state. */}
        <div className={sizes.editorCollapsed ? 'pane pane-editor collapsed' : 'pane pane-editor'}>
          <PanelBoundary name="Reward editor">
            <EditorPanel />
          </PanelBoundary>
        </div>
        <Splitter
          label="Resize reward editor"
          vertical
          value={sizes.editorWidth}
          min={PANE_MIN.editor}
          max={editorMax}
          collapsed={sizes.editorCollapsed}
          onChange={(editorWidth) => set({ editorWidth })}
          onToggle={() => set({ editorCollapsed: !sizes.editorCollapsed })}
        />
        <div className="results" ref={results}>
          <PanelBoundary name="Reward models">
            <ModelsPanel />
          </PanelBoundary>
          <div className={sizes.diagCollapsed ? 'pane pane-diag collapsed' : 'pane pane-diag'} style={{ height: sizes.diagCollapsed ? 0 : sizes.diagHeight }}>
            <PanelBoundary name="Diagnostics">
              <DiagnosticsPanel />
            </PanelBoundary>
          </div>
          <Splitter
            label="Resize diagnostics"
            vertical={false}
            value={sizes.diagHeight}
            min={PANE_MIN.diag}
            max={diagMax}
            collapsed={sizes.diagCollapsed}
            onChange={(diagHeight) => set({ diagHeight })}
            onToggle={() => set({ diagCollapsed: !sizes.diagCollapsed })}
          />
          <div className="table-and-detail">
            <PanelBoundary name="Rollouts">
              <RolloutTable />
            </PanelBoundary>
            <PanelBoundary name="Rollout detail">
              <RolloutDetail />
            </PanelBoundary>
          </div>
        </div>
      </main>
      <DropZone />
      {mapping || needsMapping ? (
        <MappingDialog
          columns={mappingColumns}
          onClose={() => {
            setMapping(false);
            if (needsMapping) setImportError(null);
          }}
        />
      ) : null}
    </div>
  );
}
