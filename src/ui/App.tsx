import { useState } from 'react';
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
      <main className="workspace">
        <PanelBoundary name="Reward editor">
          <EditorPanel />
        </PanelBoundary>
        <div className="results">
          <PanelBoundary name="Reward models">
            <ModelsPanel />
          </PanelBoundary>
          <PanelBoundary name="Diagnostics">
            <DiagnosticsPanel />
          </PanelBoundary>
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
