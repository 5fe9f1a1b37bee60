/** Monaco's TypeScript worker module (it ships no types): what workers/ts-reward.worker.ts extends. */
declare module 'monaco-editor/language/typescript/ts.worker' {
  import type * as TS from 'typescript';

  /** Monaco's typescriptServices module: the whole compiler API is its `typescript` export. */
  export const ts: { typescript: typeof TS };
  export function initialize(factory: (ctx: unknown, createData: unknown) => unknown): void;

  type Span = TS.TextSpan;
  export class TypeScriptWorker {
    constructor(ctx: unknown, createData: unknown);
    _getModel(fileName: string): unknown;
    _getScriptText(fileName: string): string | undefined;
    getSyntacticDiagnostics(fileName: string): Promise<TS.Diagnostic[]>;
    getSemanticDiagnostics(fileName: string): Promise<TS.Diagnostic[]>;
    getSuggestionDiagnostics(fileName: string): Promise<TS.Diagnostic[]>;
    getCompletionsAtPosition(fileName: string, position: number): Promise<TS.CompletionInfo | undefined>;
    getCompletionEntryDetails(fileName: string, position: number, entry: string): Promise<TS.CompletionEntryDetails | undefined>;
    getSignatureHelpItems(fileName: string, position: number, options: unknown): Promise<TS.SignatureHelpItems | undefined>;
    getQuickInfoAtPosition(fileName: string, position: number): Promise<TS.QuickInfo | undefined>;
    getDocumentHighlights(fileName: string, position: number, filesToSearch: string[]): Promise<TS.DocumentHighlights[] | undefined>;
    getDefinitionAtPosition(fileName: string, position: number): Promise<readonly TS.DefinitionInfo[] | undefined>;
    getReferencesAtPosition(fileName: string, position: number): Promise<TS.ReferenceEntry[] | undefined>;
    getNavigationTree(fileName: string): Promise<TS.NavigationTree | undefined>;
    getFormattingEditsForDocument(fileName: string, options: unknown): Promise<TS.TextChange[]>;
    getFormattingEditsForRange(fileName: string, start: number, end: number, options: unknown): Promise<TS.TextChange[]>;
    getFormattingEditsAfterKeystroke(fileName: string, position: number, ch: string, options: unknown): Promise<TS.TextChange[]>;
    findRenameLocations(
      fileName: string,
      position: number,
      findInStrings: boolean,
      findInComments: boolean,
      withPrefixAndSuffix: boolean,
    ): Promise<readonly TS.RenameLocation[] | undefined>;
    getRenameInfo(fileName: string, position: number, options: unknown): Promise<TS.RenameInfo>;
    getCodeFixesAtPosition(fileName: string, start: number, end: number, errorCodes: number[], formatOptions: unknown): Promise<readonly TS.CodeFixAction[]>;
    provideInlayHints(fileName: string, start: number, end: number): Promise<readonly TS.InlayHint[]>;
  }
  export type { Span };
}
