import * as monaco from 'monaco-editor';
import { loader } from '@monaco-editor/react';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TsWorker from '../../../workers/ts-reward.worker?worker';
import REWARD_TYPES_DTS from '../../core/reward/reward-studio.d.ts?raw';

/**
 * Monaco served from the app's own bundle (no CDN): workers imported with Vite's ?worker suffix, and the
 * studio's reward types registered as the module 'reward-studio' so `t.` and `ctx.` complete. The TypeScript worker is
 * Monaco's, typing an untyped default export's `t` and `ctx` from the contract (workers/ts-reward.worker.ts).
 */
self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    return label === 'typescript' || label === 'javascript' ? new TsWorker() : new EditorWorker();
  },
};

const ts = monaco.typescript;
ts.typescriptDefaults.setCompilerOptions({
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.NodeJs,
  strict: true,
  noEmit: true,
  allowNonTsExtensions: true,
  lib: ['es2022'],
});
ts.typescriptDefaults.addExtraLib(REWARD_TYPES_DTS, 'file:///node_modules/reward-studio/index.d.ts');

loader.config({ monaco });

export { monaco };
