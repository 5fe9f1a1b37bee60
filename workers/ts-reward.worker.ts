import type * as TS from 'typescript';
import { initialize, ts as services, TypeScriptWorker } from 'monaco-editor/language/typescript/ts.worker';
import { applyInserts, contractInserts, fromCopy, spanFromCopy, toCopy, touchesInsert, type Insert } from '../src/ui/editor/contractTypes';

/**
 * Monaco's TypeScript worker, checking the reward code with the contract's types on an untyped default export
 * (src/ui/editor/contractTypes.ts): positions going in are mapped to the checked copy, spans coming out back.
 */
const ts = services.typescript;

class ContractTypedWorker extends TypeScriptWorker {
  private copies = new Map<string, { source: string; inserts: Insert[]; text: string }>();

  private copy(fileName: string): { inserts: Insert[]; text: string } | null {
    const source = super._getScriptText(fileName);
    if (source === undefined || !this._getModel(fileName)) return null;
    let c = this.copies.get(fileName);
    if (!c || c.source !== source) {
      const inserts = contractInserts(ts, source);
      c = { source, inserts, text: applyInserts(source, inserts) };
      this.copies.set(fileName, c);
    }
    return c;
  }

  private ins(fileName: string): Insert[] {
    return this.copy(fileName)?.inserts ?? [];
  }

  override _getScriptText(fileName: string): string | undefined {
    return this.copy(fileName)?.text ?? super._getScriptText(fileName);
  }

  private diags(fileName: string, ds: TS.Diagnostic[]): TS.Diagnostic[] {
    const ins = this.ins(fileName);
    return ds.map((d) => {
      if (d.start === undefined || d.length === undefined) return d;
      const s = spanFromCopy(ins, { start: d.start, length: d.length });
      return { ...d, start: s.start, length: s.length };
    });
  }

  override async getSyntacticDiagnostics(fileName: string) {
    return this.diags(fileName, await super.getSyntacticDiagnostics(fileName));
  }
  override async getSemanticDiagnostics(fileName: string) {
    return this.diags(fileName, await super.getSemanticDiagnostics(fileName));
  }
  override async getSuggestionDiagnostics(fileName: string) {
    return this.diags(fileName, await super.getSuggestionDiagnostics(fileName));
  }

  override async getCompletionsAtPosition(fileName: string, position: number) {
    const ins = this.ins(fileName);
    const r = await super.getCompletionsAtPosition(fileName, toCopy(ins, position));
    if (!r || ins.length === 0) return r;
    return {
      ...r,
      optionalReplacementSpan: r.optionalReplacementSpan && spanFromCopy(ins, r.optionalReplacementSpan),
      entries: r.entries.map((e) => (e.replacementSpan ? { ...e, replacementSpan: spanFromCopy(ins, e.replacementSpan) } : e)),
    };
  }
  override async getCompletionEntryDetails(fileName: string, position: number, entry: string) {
    return super.getCompletionEntryDetails(fileName, toCopy(this.ins(fileName), position), entry);
  }
  override async getSignatureHelpItems(fileName: string, position: number, options: unknown) {
    const ins = this.ins(fileName);
    const r = await super.getSignatureHelpItems(fileName, toCopy(ins, position), options);
    return r && { ...r, applicableSpan: spanFromCopy(ins, r.applicableSpan) };
  }
  override async getQuickInfoAtPosition(fileName: string, position: number) {
    const ins = this.ins(fileName);
    const r = await super.getQuickInfoAtPosition(fileName, toCopy(ins, position));
    return r && { ...r, textSpan: spanFromCopy(ins, r.textSpan) };
  }
  override async getDocumentHighlights(fileName: string, position: number, filesToSearch: string[]) {
    const r = await super.getDocumentHighlights(fileName, toCopy(this.ins(fileName), position), filesToSearch);
    return r?.map((h) => {
      const ins = this.ins(h.fileName);
      return { ...h, highlightSpans: h.highlightSpans.map((s) => ({ ...s, textSpan: spanFromCopy(ins, s.textSpan) })) };
    });
  }
  override async getDefinitionAtPosition(fileName: string, position: number) {
    const r = await super.getDefinitionAtPosition(fileName, toCopy(this.ins(fileName), position));
    return r?.map((d) => ({ ...d, textSpan: spanFromCopy(this.ins(d.fileName), d.textSpan) }));
  }
  override async getReferencesAtPosition(fileName: string, position: number) {
    const r = await super.getReferencesAtPosition(fileName, toCopy(this.ins(fileName), position));
    return r?.map((d) => ({ ...d, textSpan: spanFromCopy(this.ins(d.fileName), d.textSpan) }));
  }
  override async getNavigationTree(fileName: string) {
    const ins = this.ins(fileName);
    const map = (n: TS.NavigationTree): TS.NavigationTree => ({
      ...n,
      spans: n.spans.map((s) => spanFromCopy(ins, s)),
      nameSpan: n.nameSpan && spanFromCopy(ins, n.nameSpan),
      childItems: n.childItems?.map(map),
    });
    const r = await super.getNavigationTree(fileName);
    return r && map(r);
  }

  /** Formatting edits over the written types would change the user's code where nothing is: they are dropped. */
  private edits(fileName: string, es: readonly TS.TextChange[]): TS.TextChange[] {
    const ins = this.ins(fileName);
    return es.filter((e) => !touchesInsert(ins, e.span)).map((e) => ({ ...e, span: spanFromCopy(ins, e.span) }));
  }
  override async getFormattingEditsForDocument(fileName: string, options: unknown) {
    return this.edits(fileName, await super.getFormattingEditsForDocument(fileName, options));
  }
  override async getFormattingEditsForRange(fileName: string, start: number, end: number, options: unknown) {
    const ins = this.ins(fileName);
    return this.edits(fileName, await super.getFormattingEditsForRange(fileName, toCopy(ins, start), toCopy(ins, end), options));
  }
  override async getFormattingEditsAfterKeystroke(fileName: string, position: number, ch: string, options: unknown) {
    return this.edits(fileName, await super.getFormattingEditsAfterKeystroke(fileName, toCopy(this.ins(fileName), position), ch, options));
  }

  override async findRenameLocations(fileName: string, position: number, findInStrings: boolean, findInComments: boolean, withPrefixAndSuffix: boolean) {
    const r = await super.findRenameLocations(fileName, toCopy(this.ins(fileName), position), findInStrings, findInComments, withPrefixAndSuffix);
    return r?.map((l) => ({ ...l, textSpan: spanFromCopy(this.ins(l.fileName), l.textSpan) }));
  }
  override async getRenameInfo(fileName: string, position: number, options: unknown) {
    const ins = this.ins(fileName);
    const r = await super.getRenameInfo(fileName, toCopy(ins, position), options);
    return r.canRename ? { ...r, triggerSpan: spanFromCopy(ins, r.triggerSpan) } : r;
  }
  override async getCodeFixesAtPosition(fileName: string, start: number, end: number, errorCodes: number[], formatOptions: unknown) {
    const ins = this.ins(fileName);
    const r = await super.getCodeFixesAtPosition(fileName, toCopy(ins, start), toCopy(ins, end), errorCodes, formatOptions);
    return r.map((fix) => ({
      ...fix,
      changes: fix.changes.map((c) => ({ ...c, textChanges: this.edits(c.fileName, c.textChanges) })),
    }));
  }
  override async provideInlayHints(fileName: string, start: number, end: number) {
    const ins = this.ins(fileName);
    const r = await super.provideInlayHints(fileName, toCopy(ins, start), toCopy(ins, end));
    return r.map((h) => ({ ...h, position: fromCopy(ins, h.position) }));
  }
}

// Replaces the handler Monaco's module installed on import: the same start, with this worker class.
self.onmessage = () => {
  initialize((ctx, createData) => new ContractTypedWorker(ctx, createData));
};
