import { describe, expect, it } from 'vitest';
import { normaliseShape, normaliseShapes, parseShapeArg, shapeLabel, shapeNeeds, SHAPE_NAMES, SHAPES } from './spec';

describe('parseShapeArg', () => {
  it('reads name:k=v,… with defaults filled', () => {
    expect(parseShapeArg('dapo-overlong:max=400,cache=100,unit=chars')).toEqual({
      ok: true,
      value: { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' },
    });
    expect(parseShapeArg('kimi-length')).toEqual({ ok: true, value: { name: 'kimi-length', unit: 'tokens' } });
    expect(parseShapeArg('par:ref=column,column=ref_score')).toEqual({ ok: true, value: { name: 'par', ref: 'column', column: 'ref_score' } });
    expect(parseShapeArg('clip:min=-1')).toEqual({ ok: true, value: { name: 'clip', min: -1, max: null } });
    expect(parseShapeArg('center')).toEqual({ ok: true, value: { name: 'center', over: 'batch' } });
    expect(parseShapeArg('step-sum')).toEqual({ ok: true, value: { name: 'step-sum', weight: 1 } });
    expect(parseShapeArg('scale:by=1e-3')).toEqual({ ok: true, value: { name: 'scale', by: 0.001 } });
  });
  it.each([
    ['dapo-overlng:max=4', 'invalid shape name: dapo-overlng'],
    ['dapo-overlong:max=400', 'invalid dapo-overlong cache: undefined'],
    ['dapo-overlong:max=abc,cache=1', 'invalid dapo-overlong max: abc'],
    ['dapo-overlong:max=-5,cache=1', 'invalid dapo-overlong max: -5'],
    ['dapo-overlong:max=400,cache=500', 'invalid dapo-overlong cache: 500'],
    ['dapo-overlong:max=400,cache=100,unit=words', 'invalid dapo-overlong unit: words'],
    ['kimi-length:units=chars', 'invalid kimi-length option: units'],
    ['kimi-length:unit', 'invalid kimi-length option: unit'],
    ['clip', 'invalid clip: no min or max'],
    ['clip:min=2,max=1', 'invalid clip min: 2 (above max 1)'],
    ['scale:by=Infinity', 'invalid scale by: Infinity'],
    ['scale:by=0x10', 'invalid scale by: 0x10'],
    ['center:over=step', 'invalid center over: step'],
    ['par:ref=mean', 'invalid par ref: mean'],
    ['par:ref=column', 'invalid par column: undefined'],
    ['par:column=x', 'invalid par column: x (only with ref=column)'],
    ['step-clip', 'invalid step-clip eta: undefined'],
    ['step-delta:last=maybe', 'invalid step-delta last: maybe'],
    ['scale:by=1,by=2', 'invalid scale option: by'],
    ['scale:name=clip', 'invalid scale option: name'],
  ])('%s → %s', (arg, message) => {
    expect(parseShapeArg(arg)).toEqual({ ok: false, message });
  });
});

describe('normaliseShape(s)', () => {
  it('rejects what a hostile session could hold', () => {
    expect(normaliseShape(null)).toEqual({ ok: false, message: 'invalid shape: null' });
    expect(normaliseShape({ name: '__proto__' })).toEqual({ ok: false, message: 'invalid shape name: __proto__' });
    expect(normaliseShape({ name: 'scale', by: '2' })).toEqual({ ok: true, value: { name: 'scale', by: 2 } });
    expect(normaliseShape({ name: 'scale', by: true })).toEqual({ ok: false, message: 'invalid scale by: true' });
    expect(normaliseShapes({})).toEqual({ ok: false, message: 'invalid shaping: {}' });
    expect(normaliseShapes(Array(17).fill({ name: 'center' }))).toEqual({ ok: false, message: 'invalid shaping: 17 transforms (at most 16)' });
  });
  it('step transforms need a step-sum after them', () => {
    expect(normaliseShapes([{ name: 'step-delta' }])).toEqual({ ok: false, message: 'invalid shaping: step-delta without a step-sum after it' });
    expect(normaliseShapes([{ name: 'step-sum' }, { name: 'step-clip', eta: 1 }])).toEqual({
      ok: false,
      message: 'invalid shaping: step-clip without a step-sum after it',
    });
    expect(normaliseShapes([{ name: 'step-clip', eta: 1 }, { name: 'step-delta' }, { name: 'step-sum' }]).ok).toBe(true);
  });
  it('shapeLabel is what parseShapeArg reads back', () => {
    for (const arg of ['dapo-overlong:max=400,cache=100,unit=chars', 'clip:min=-1', 'par:ref=column,column=x', 'step-delta', 'center:over=group']) {
      const p = parseShapeArg(arg);
      if (!p.ok) throw new Error(p.message);
      expect(parseShapeArg(shapeLabel(p.value))).toEqual(p);
    }
    expect(shapeLabel({ name: 'clip', min: -1, max: null })).toBe('clip:min=-1');
  });
  it('shapeNeeds lists the lengths, columns and steps the list reads', () => {
    const p = normaliseShapes([
      { name: 'dapo-overlong', max: 4, cache: 1, unit: 'chars' },
      { name: 'kimi-length' },
      { name: 'par', ref: 'column', column: 'c' },
      { name: 'step-sum' },
    ]);
    if (!p.ok) throw new Error(p.message);
    expect(shapeNeeds(p.value)).toEqual({ tokens: true, chars: true, columns: ['c'], steps: true });
  });
  it('every transform has a formula and a source', () => {
    for (const n of SHAPE_NAMES) expect(SHAPES[n].formula.length * SHAPES[n].source.length).toBeGreaterThan(0);
  });
});
