/**
 * The exported TypeScript module (exportTs.ts): type-checked strictly by the TypeScript compiler, then run as plain
 * JavaScript on the Python reference fixture (scripts/shaping-fixtures.py), which it must reproduce.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { diff, type Num } from '../stats/fixtures/check';
import { exportShapingTs } from './exportTs';
import fixture from './fixtures/shaping.json';
import { normaliseShapes, type ShapeSpec } from './spec';

const dir = mkdtempSync(join(tmpdir(), 'shaping-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function specs(raw: unknown): ShapeSpec[] {
  const n = normaliseShapes(raw);
  if (!n.ok) throw new Error(n.message);
  return n.value;
}

type Shape = (rewards: (number | null)[], rows: unknown[]) => (number | null)[];
let count = 0;
async function load(text: string): Promise<Shape> {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(dir, `shaping-${count++}.mjs`);
  writeFileSync(file, js);
  return ((await import(/* @vite-ignore */ pathToFileURL(file).href)) as { shape: Shape }).shape;
}

const d = fixture.input;
const rows = d.groupOf.map((g, i) => ({
  group: `g${g}`,
  completion: 'x'.repeat(d.chars[i]),
  tokens: d.tokens[i],
  steps: d.stepValues.slice(d.stepOffsets[i], d.stepOffsets[i + 1]),
  fields: { ref: d.ref[i] },
}));
// The row outside every group is unscored in the studio: no reward here either.
const rewards = d.rewards.map((r, i) => (d.groupOf[i] < 0 ? null : r));

describe('Export shaping (TypeScript)', () => {
  it('type-checks under strict settings, with the whole list in it', () => {
    const all = specs(fixture.cases[fixture.cases.length - 1].specs.concat(fixture.cases[6].specs, fixture.cases[7].specs));
    const text = exportShapingTs(all);
    const file = join(dir, 'check.ts');
    writeFileSync(file, text);
    const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], skipLibCheck: true });
    const problems = ts.getPreEmitDiagnostics(program).map((x) => ts.flattenDiagnosticMessageText(x.messageText, '\n'));
    expect(problems).toEqual([]);
    expect(text).toContain(
      '// Shaping, exported from Reward Studio: step-clip:eta=0.6 → step-delta:last=keep → step-sum:weight=2 → kimi-length:unit=tokens → par:ref=column',
    );
  });
  it.each(fixture.cases.map((c) => [c.specs.map((s) => s.name).join(' → '), c] as const))('%s: the reference values', async (_, c) => {
    const shape = await load(exportShapingTs(specs(c.specs)));
    expect(diff(shape(rewards, rows), c.shaped as Num[])).toEqual([]);
  });
});
