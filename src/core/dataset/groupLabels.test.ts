import { describe, expect, it } from 'vitest';
import { GroupLabeler, groupIndexByLabel, groupLabels, groupRanks, groupsFromColumn, promptHash } from './groupLabels';
import { DatasetBuilder } from './dataset';
import { Packer } from './packed';

describe('promptHash', () => {
  it('matches cyrb53 as scripts/group-label-fixtures.py computes it', () => {
    // bryc's README gives cyrb53("a") = 7929297801672961 = 0x1c2ba782c97901.
    expect(promptHash('a')).toBe('1c2ba782c97901');
    expect(promptHash('')).toBe('0bdcb81aee8d83');
    expect(promptHash('What is 2+2?')).toBe('0d0537c41ac664');
    // UTF-16 code units: the emoji is a surrogate pair.
    expect(promptHash('日本語 🎉')).toBe('05814404ba14dd');
  });
});

describe('groupsFromColumn', () => {
  const det = (format: 'trl-standard' | 'mapped', columns: string[]) => ({ format, columns });
  it('is true when a standard group column is in the file', () => {
    expect(groupsFromColumn(det('trl-standard', ['prompt', 'completion', 'group']))).toBe(true);
    expect(groupsFromColumn(det('trl-standard', ['prompt_id', 'prompt', 'completion']))).toBe(true);
    expect(groupsFromColumn(det('trl-standard', ['prompt', 'completion', 'groups']))).toBe(false);
  });
  it('follows the mapping for mapped files', () => {
    expect(groupsFromColumn(det('mapped', ['q', 'a', 'gid']), { group: 'gid' })).toBe(true);
    expect(groupsFromColumn(det('mapped', ['q', 'a', 'group']), {})).toBe(false);
  });
});

describe('groupLabels', () => {
  it('keeps column values exactly, an int64 above 2^53 included', () => {
    expect(groupLabels(['200', '9007199254740993', 'abc'], true)).toEqual(['200', '9007199254740993', 'abc']);
  });
  it('labels prompt groups by the hash of their text, whatever their order', () => {
    expect(groupLabels(['a', 'What is 2+2?'], false)).toEqual(['p-1c2ba782c97901', 'p-0d0537c41ac664']);
    expect(groupLabels(['What is 2+2?', 'a'], false)).toEqual(['p-0d0537c41ac664', 'p-1c2ba782c97901']);
  });
  it('tells apart labels that would collide', () => {
    // Two keys with one cyrb53 hash cannot be found by hand: a hash that gives every key the same value stands in.
    expect(groupLabels(['a', 'b', 'c'], false, () => 'h')).toEqual(['p-h', 'p-h~2', 'p-h~3']);
  });
  it('gives the same key the same label (one prompt at several steps: groups are per step)', () => {
    expect(groupLabels(['a', 'b', 'a'], false)).toEqual(['p-1c2ba782c97901', 'p-' + promptHash('b'), 'p-1c2ba782c97901']);
    expect(groupLabels(['a', 'b', 'a'], false, () => 'h')).toEqual(['p-h', 'p-h~2', 'p-h']);
    expect(groupLabels(['7', '7'], true)).toEqual(['7', '7']);
  });
  it('maps labels back to group indexes', () => {
    const m = groupIndexByLabel(['200', '7', '9007199254740993']);
    expect(m.get('7')).toBe(1);
    expect(m.get('9007199254740993')).toBe(2);
    expect(m.get('9007199254740992')).toBeUndefined();
  });
});

describe('groupRanks', () => {
  it('orders digits as numbers at any length, then text', () => {
    // Sorted by hand: 7 < 10 < 200 < 9007199254740993 < 9007199254740994 < abc.
    const labels = ['200', '9007199254740994', '7', 'abc', '10', '9007199254740993'];
    expect(Array.from(groupRanks(labels))).toEqual([2, 4, 0, 5, 1, 3]);
  });
});

describe('GroupLabeler (labels made batch by batch)', () => {
  it('gives what groupLabels gives for all the keys at once, however they are cut', () => {
    const keys = ['a', 'b', 'a', 'c', 'b', 'd'];
    const l = new GroupLabeler(false, () => 'h');
    l.add(keys.slice(0, 2));
    l.add(keys.slice(2, 5));
    l.add(keys.slice(5));
    expect(l.labels).toEqual(groupLabels(keys, false, () => 'h'));
    expect(l.labels).toEqual(['p-h', 'p-h~2', 'p-h', 'p-h~3', 'p-h~2', 'p-h~4']); // by hand
  });
  it('a DatasetBuilder labelling as it reads finishes with the same labels', () => {
    const traj = (i: number, group: string) => ({ id: `r${i}`, index: i, line: i + 1, group, prompt: group, completion: 'c', messages: [], fields: {} });
    const detection = { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: ['prompt', 'completion'] } as never;
    const build = (asRead: boolean) => {
      const b = new DatasetBuilder();
      if (asRead) b.labelAsRead(false);
      const p = new Packer();
      b.append(p.pack([traj(0, 'x'), traj(1, 'y')] as never, [], 1, 2));
      b.append(p.pack([traj(2, 'x'), traj(3, 'z')] as never, [], 2, 2));
      return b.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection }).groupLabels;
    };
    expect(build(true)).toEqual(build(false));
    expect(build(true)).toEqual(['x', 'y', 'z'].map((k) => 'p-' + promptHash(k)));
  });
});
