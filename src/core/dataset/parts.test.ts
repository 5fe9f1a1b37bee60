import { describe, expect, it } from 'vitest';
import { Packer } from './packed';
import { isDataFile, PART_LIMIT, PartsJoiner, plainGroupKey, planParts, stepFromName, stepGroupKey, withPartStep } from './parts';
import type { Trajectory } from '../trajectory';

describe('stepFromName', () => {
  it('reads the frameworks’ names', () => {
    expect(stepFromName('123.jsonl')).toEqual({ step: 123 }); // verl rollout_data_dir/{step}.jsonl
    expect(stepFromName('rollouts/7.jsonl')).toEqual({ step: 7 });
    expect(stepFromName('completions_42.parquet')).toEqual({ step: 42 }); // TRL
    expect(stepFromName('step_5.jsonl')).toEqual({ step: 5 });
    expect(stepFromName('global_step_300.jsonl.gz')).toEqual({ step: 300 });
    expect(stepFromName('0007.jsonl')).toEqual({ step: 7 });
    expect(stepFromName('C:\\runs\\step-12.csv')).toEqual({ step: 12 });
  });
  it('takes the digits after "step" when the name has several numbers', () => {
    expect(stepFromName('run2_global_step_300_rank0.jsonl')).toEqual({ step: 300 });
    expect(stepFromName('qwen2.5_Step.40.jsonl')).toEqual({ step: 40 });
    expect(stepFromName('step1_step2.jsonl')).toEqual({ step: 2 }); // the last one after "step"
  });
  it('gives none, and says why, rather than guess', () => {
    expect(stepFromName('rollouts.jsonl')).toEqual({ step: null, why: 'no digits' });
    expect(stepFromName('run2_epoch3.jsonl')).toEqual({ step: null, why: 'ambiguous' });
    expect(stepFromName('qwen2.5-7b.jsonl')).toEqual({ step: null, why: 'ambiguous' });
    expect(stepFromName('1234567890123456.jsonl')).toEqual({ step: null, why: 'too large' });
    expect(stepFromName('000000000000000000001.jsonl')).toEqual({ step: 1 }); // leading zeros do not count
  });
  it('does not read the extension as a number', () => {
    expect(stepFromName('5.json')).toEqual({ step: 5 });
    expect(stepFromName('data.tsv.gz')).toEqual({ step: null, why: 'no digits' });
  });
});

describe('isDataFile', () => {
  it('knows the data extensions, compressed or not, in any case', () => {
    for (const n of ['a.jsonl', 'a.JSONL', 'b.parquet', 'c.csv.gz', 'd.tsv', 'e.json', 'f.ndjson']) expect(isDataFile(n)).toBe(true);
    for (const n of ['README.md', 'a.jsonl.bak', 'config.yaml', '.DS_Store', 'a.gz', 'jsonl']) expect(isDataFile(n)).toBe(false);
  });
});

describe('planParts', () => {
  it('orders by step, then name (digits as numbers), files without a step last; skips non-data files', () => {
    const files = ['10.jsonl', 'notes.txt', '2.jsonl', 'b.jsonl', 'a10.jsonl', 'a9.jsonl', 'x1_y2.jsonl', '1.jsonl'];
    const plan = planParts(files, (f) => f);
    // By hand: steps 1, 2, 9 (a9), 10 and 10 (10.jsonl < a10.jsonl by name); then b and x1_y2 (no step) by name.
    expect(plan.parts.map((p) => [p.name, p.step])).toEqual([
      ['1.jsonl', 1],
      ['2.jsonl', 2],
      ['a9.jsonl', 9],
      ['10.jsonl', 10],
      ['a10.jsonl', 10],
      ['b.jsonl', null],
      ['x1_y2.jsonl', null],
    ]);
    expect(plan.skipped).toEqual(['notes.txt']);
    expect(plan.notes).toEqual([
      'x1_y2.jsonl: no step read from the name (several numbers and none after "step")',
      '10.jsonl and a10.jsonl both give step 10: their rows share that step',
    ]);
  });
  it('refuses too many files and too long names', () => {
    expect(() =>
      planParts(
        Array.from({ length: PART_LIMIT + 1 }, (_, i) => `${i}.jsonl`),
        (f) => f,
      ),
    ).toThrow(/at most 10000/);
    expect(() => planParts(['x'.repeat(1001) + '.jsonl'], (f) => f)).toThrow(/longer than 1000/);
  });
});

describe('group keys per step', () => {
  it('scopes a key by its step and gives the plain key back', () => {
    expect(stepGroupKey(Number.NaN, 'q')).toBe('q');
    expect(stepGroupKey(3, 'q')).not.toBe(stepGroupKey(4, 'q'));
    expect(plainGroupKey(stepGroupKey(3, 'q'))).toBe('q');
    expect(plainGroupKey(stepGroupKey(3, ''))).toBe('');
    expect(plainGroupKey('plain')).toBe('plain');
  });
  it('fills a trajectory’s missing step from its file', () => {
    const t = { step: undefined } as Trajectory;
    expect(withPartStep(t, 4).step).toBe(4);
    expect(withPartStep({ step: 9 } as Trajectory, 4).step).toBe(9);
    expect(withPartStep({} as Trajectory, null).step).toBeUndefined();
  });
});

const traj = (line: number, group: string, step?: number): Trajectory =>
  ({
    id: `r${line}`,
    index: line - 1,
    line,
    group,
    prompt: group,
    completion: 'c',
    messages: [],
    fields: {},
    ...(step === undefined ? {} : { step }),
  }) as unknown as Trajectory;

describe('PartsJoiner', () => {
  it('numbers groups by (step, key) over every part, fills steps and names issues (worked by hand)', () => {
    const j = new PartsJoiner();
    // Part 1: 1.jsonl, rows without a step: q, q, r → step 1 from the name.
    j.startPart('1.jsonl', 1);
    const a = j.adopt(new Packer().pack([traj(1, 'q'), traj(2, 'q'), traj(3, 'r')], [{ line: 4, reason: 'bad' }], 10, 10));
    expect([...a.step]).toEqual([1, 1, 1]);
    expect([...a.groupOf]).toEqual([0, 0, 1]);
    expect(a.newGroups.map(plainGroupKey)).toEqual(['q', 'r']);
    expect(a.issues).toEqual([{ line: 4, reason: 'bad', file: '1.jsonl' }]);
    // Part 2: 2.jsonl, rows q (no step → 2), q with its own step 1 (joins step 1's q), r at step 2.
    j.startPart('2.jsonl', 2);
    const b = j.adopt(new Packer().pack([traj(1, 'q'), traj(2, 'q', 1), traj(3, 'r')], [], 10, 10));
    expect([...b.step]).toEqual([2, 1, 2]);
    expect([...b.groupOf]).toEqual([2, 0, 3]);
    expect(b.newGroups.map(plainGroupKey)).toEqual(['q', 'r']);
    // A part whose name gives no step: its step-less rows stay step-less, grouped by plain key.
    j.startPart('extra.jsonl', null);
    const c = j.adopt(new Packer().pack([traj(1, 'q'), traj(2, 'q')], [], 10, 10));
    expect([...c.step].map((s) => Number.isNaN(s))).toEqual([true, true]);
    expect([...c.groupOf]).toEqual([4, 4]);
    expect(c.newGroups).toEqual(['q']);
  });
  it('keeps a part’s local numbering across its batches', () => {
    const j = new PartsJoiner();
    j.startPart('3.jsonl', 3);
    const p = new Packer();
    j.adopt(p.pack([traj(1, 'q'), traj(2, 'r')], [], 5, 10));
    const second = j.adopt(p.pack([traj(3, 'r'), traj(4, 's')], [], 10, 10)); // r was numbered in the first batch
    expect([...second.groupOf]).toEqual([1, 2]);
    expect(second.newGroups.map(plainGroupKey)).toEqual(['s']);
  });
});

describe('datasetMeta (the CLI) groups per step too', () => {
  it('numbers (step, key) groups and keeps the plain keys', async () => {
    const { datasetMeta } = await import('./meta');
    const rows = [traj(1, 'q', 1), traj(2, 'q', 1), traj(3, 'q', 2), traj(4, 'r'), traj(5, 'r')];
    const m = datasetMeta(rows, [], { format: 'trl-standard' } as never, null);
    expect([...m.groupOf]).toEqual([0, 0, 1, 2, 2]);
    expect(m.groupKeys).toEqual(['q', 'q', 'r']);
  });
});

describe('checkStoredParts (a saved session’s files read back)', () => {
  it('passes well-formed parts and refuses anything else', async () => {
    const { checkStoredParts } = await import('./parts');
    const blob = new Blob(['{}']);
    expect(
      checkStoredParts([
        { blob, name: '1.jsonl', step: 1 },
        { blob, name: 'x.jsonl', step: null },
      ]),
    ).toEqual([
      { blob, name: '1.jsonl', step: 1 },
      { blob, name: 'x.jsonl', step: null },
    ]);
    for (const bad of [
      [],
      'parts',
      [null],
      [{ blob: 'text', name: 'a', step: 1 }],
      [{ blob, name: 5, step: 1 }],
      [{ blob, name: 'a', step: '1' }],
      [{ blob, name: 'a', step: NaN }],
      [{ blob, name: 'a'.repeat(1001), step: 1 }],
    ])
      expect(checkStoredParts(bad)).toBeNull();
    expect(checkStoredParts(Array.from({ length: PART_LIMIT + 1 }, () => ({ blob, name: 'a', step: 1 })))).toBeNull();
  });
});

describe('partOfRow', () => {
  it('finds the file of a row, a file without rows skipped (worked by hand)', async () => {
    const { partOfRow } = await import('./parts');
    const parts = [
      { name: 'a', first: 0, rows: 3 },
      { name: 'empty', first: 3, rows: 0 },
      { name: 'b', first: 3, rows: 2 },
    ];
    expect([0, 2, 3, 4].map((r) => partOfRow(parts, r)?.name)).toEqual(['a', 'a', 'b', 'b']);
    expect(partOfRow(parts, 5)).toBeUndefined();
    expect(partOfRow([], 0)).toBeUndefined();
  });
});

describe('keysAcrossSteps', () => {
  it('numbers the step-less keys of (step, key) groups (worked by hand)', async () => {
    const { keysAcrossSteps } = await import('./parts');
    // Groups: (1,P) (1,Q) (2,P) (2,R) (3,Q).
    const r = keysAcrossSteps(['P', 'Q', 'P', 'R', 'Q']);
    expect([...r.keyOf]).toEqual([0, 1, 0, 2, 1]);
    expect(r.keys).toEqual(['P', 'Q', 'R']);
  });
});

describe('stepFromName and planParts on random names (fuzz)', () => {
  it('never throw, give a step only from a run of digits in the base name, and order by step then name', () => {
    let seed = 99;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const bits = ['step', 'Step_', 'global_step-', 'run', '_', '-', '.', ' ', '0', '7', '123', '00042', '9'.repeat(16), 'é', '日本', '/', '\\'];
    const exts = ['.jsonl', '.parquet', '.csv.gz', '.json', '.txt', ''];
    const names: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const parts = Array.from({ length: 1 + rnd(6) }, () => bits[rnd(bits.length)]);
      names.push(parts.join('') + exts[rnd(exts.length)]);
    }
    for (const n of names) {
      const s = stepFromName(n);
      if (s.step === null) continue;
      expect(Number.isSafeInteger(s.step)).toBe(true);
      const base = n.slice(Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\')) + 1);
      // The step is one of the base name's runs of digits (leading zeros aside).
      expect((base.match(/\d+/g) ?? []).map(Number)).toContain(s.step);
    }
    const plan = planParts(names.slice(0, 500), (f) => f);
    for (let i = 1; i < plan.parts.length; i++) {
      const a = plan.parts[i - 1].step ?? Infinity;
      const b = plan.parts[i].step ?? Infinity;
      expect(a <= b).toBe(true);
    }
    expect(plan.parts.length + plan.skipped.length).toBe(500);
  });
});
