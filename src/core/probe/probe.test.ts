import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';
import { probeFigures, probeThreshold } from './figures';
import { applyProbe, crossDonors, echoText, MASTER_KEYS, PAD_TEXT, PROBE_NAMES, probeByName } from './probes';
import { sampleRowsSeeded } from './sample';

// Expected values from scripts/probe-fixtures.py (written from the definitions, not from this code).
const OK = RowStatus.Ok;
const own = Float64Array.from([0, 1, 0.5, NaN, 1, 0.25, 0, 0.75]);
const ownStatus = Uint8Array.from([OK, OK, OK, RowStatus.Error, OK, OK, OK, OK]);
const labels = Float64Array.from([0, 1, 1, 1, 0, NaN, 0, 1]);

describe('probeThreshold', () => {
  it('median of the rewards whose label is true (rows 1, 2, 7: 1, 0.5, 0.75 → 0.75)', () => {
    expect(probeThreshold(own, ownStatus, labels, null)).toEqual({ threshold: 0.75, source: 'label' });
  });
  it('without labels, the median of all scored rewards (7 values → 0.5); an even count takes the middle two', () => {
    expect(probeThreshold(own, ownStatus, null, null)).toEqual({ threshold: 0.5, source: 'all' });
    expect(probeThreshold(Float64Array.from([1, 4, 2, 3]), new Uint8Array(4).fill(OK), null, null).threshold).toBe(2.5);
  });
  it('labels with no true row fall back to all; --pass wins over both', () => {
    expect(probeThreshold(own, ownStatus, new Float64Array(8), null)).toEqual({ threshold: 0.5, source: 'all' });
    expect(probeThreshold(own, ownStatus, labels, 0.9)).toEqual({ threshold: 0.9, source: 'given' });
  });
});

describe('probeFigures', () => {
  const rows = Int32Array.from([0, 2, 3, 5, 7]);
  const probe = Float64Array.from([1, 0.5, 1, NaN, 0.8]);
  const probeStatus = Uint8Array.from([OK, OK, OK, RowStatus.Error, OK]);
  it('a replacement probe: n, passes, wins, Wilson intervals, mean change (CPython reference)', () => {
    const f = probeFigures('master-key::', 'replace', rows, probe, probeStatus, own, ownStatus, 0.75);
    expect(f).toMatchObject({ n: 3, passes: 2, wins: 2, failed: 1, fooled: true });
    expect(f.passRate).toBeCloseTo(2 / 3, 15);
    expect(f.passCI[0]).toBeCloseTo(0.20765960080204765, 14);
    expect(f.passCI[1]).toBeCloseTo(0.9385080552796037, 14);
    expect(f.meanDelta).toBeCloseTo(0.35, 14);
  });
  it('a modification probe is judged by its win rate', () => {
    const f = probeFigures('pad', 'modify', rows, probe, probeStatus, own, ownStatus, 0.9);
    expect(f).toMatchObject({ n: 3, passes: 1, wins: 2, fooled: true });
    expect(probeFigures('pad', 'modify', rows, probe, probeStatus, own, ownStatus, 0.9, 0.7).fooled).toBe(false);
    // A replacement probe that passes on 1 of 3 is judged by its pass rate: 1/3 ≤ 0.5.
    expect(probeFigures('x', 'replace', rows, probe, probeStatus, own, ownStatus, 0.9, 0.5).fooled).toBe(false);
  });
  it('nothing scored: rates NaN, never fooled', () => {
    const f = probeFigures('empty', 'replace', rows, probe, new Uint8Array(5), own, ownStatus, 0.5);
    expect(f).toMatchObject({ n: 0, passes: 0, failed: 5, fooled: false });
    expect(f.passRate).toBeNaN();
    expect(f.passCI).toEqual([NaN, NaN]);
  });
});

describe('sampleRowsSeeded (mulberry32 + partial Fisher–Yates, as the Python reference)', () => {
  it('gives the reference rows', () => {
    expect([...sampleRowsSeeded(100, 10, 7)]).toEqual([1, 7, 29, 43, 49, 54, 58, 70, 75, 97]);
    expect([...sampleRowsSeeded(1000, 3, 2026)]).toEqual([309, 455, 661]);
    expect([...sampleRowsSeeded(5, 9, 1)]).toEqual([0, 1, 2, 3, 4]);
  });
});

const traj = (over: Partial<Trajectory>): Trajectory => ({
  id: '0',
  index: 0,
  line: 1,
  group: 'g',
  prompt: 'P',
  completion: 'C',
  messages: [
    { role: 'user', content: 'P' },
    { role: 'assistant', content: 'C' },
  ],
  fields: { completion: 'C' },
  ...over,
});

describe('probes', () => {
  it('the paper’s ten master keys, with U+2019 in “Let’s”, then the rest, in the issue’s names', () => {
    expect(MASTER_KEYS).toHaveLength(10);
    expect(MASTER_KEYS[5].charCodeAt(3)).toBe(0x2019);
    expect(PROBE_NAMES).toEqual([
      ...MASTER_KEYS.map((k) => `master-key:${k}`),
      'empty',
      'echo',
      'cross',
      'claim-correct',
      'format-only',
      'repeat-2',
      'repeat-4',
      'repeat-8',
      'truncate-half',
      'pad',
    ]);
    expect(PAD_TEXT).not.toMatch(/\d/);
  });
  it('texts as the reference writes them (code points for truncate-half)', () => {
    const t = traj({
      completion: 'Ab😀cd',
      messages: [
        { role: 'user', content: 'P' },
        { role: 'assistant', content: 'Ab😀cd' },
      ],
    });
    const text = (name: string) => applyProbe(probeByName(name)!, t, undefined).completion;
    expect(text('truncate-half')).toBe('Ab');
    expect(text('repeat-2')).toBe('Ab😀cd\nAb😀cd');
    expect(text('repeat-4')).toBe('Ab😀cd\nAb😀cd\nAb😀cd\nAb😀cd');
    expect(text('pad')).toBe(`Ab😀cd\n\n${PAD_TEXT}`);
    expect(text('master-key:Solution')).toBe('Solution');
    expect(text('empty')).toBe('');
  });
  it('a chat: the final assistant message is replaced (its tool calls dropped); echo is the last user message; fields stay', () => {
    const t = traj({
      prompt: 'system: S\nuser: first\nassistant: x\nuser: second',
      completion: 'final',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'x', toolCalls: [{ name: 'f', arguments: {} }] },
        { role: 'tool', content: 'r' },
        { role: 'user', content: 'second' },
        { role: 'assistant', content: 'final', toolCalls: [{ name: 'g', arguments: {} }] },
      ],
    });
    expect(echoText(t)).toBe('second');
    const p = applyProbe(probeByName('echo')!, t, undefined);
    expect(p.completion).toBe('second');
    expect(p.messages[5]).toEqual({ role: 'assistant', content: 'second' });
    expect(p.messages[2]).toBe(t.messages[2]);
    expect(p.fields).toBe(t.fields);
    expect(p.prompt).toBe(t.prompt);
    expect(t.completion).toBe('final');
  });
  it('cross: each row gets the first rollout of the next group, the last group the first group’s', () => {
    // Rows' groups (first-seen order): 0 0 1 2 1 2 → first rows 0, 2, 3.
    expect([...crossDonors(Int32Array.from([0, 0, 1, 2, 1, 2]), 3)]).toEqual([2, 2, 3, 0, 3, 0]);
    expect([...crossDonors(Int32Array.from([0, 0]), 1)]).toEqual([0, 0]);
    const donor = traj({ completion: 'other' });
    expect(applyProbe(probeByName('cross')!, traj({}), donor).completion).toBe('other');
  });
});
