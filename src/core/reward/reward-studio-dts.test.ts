// The types reward code sees in the editor (reward-studio.d.ts) are a copy of the source types: `tsc --noEmit`
// (npm test's first step) fails on this file when the two differ in any property, its optionality or its type.
import type * as Editor from 'reward-studio';
import { describe, expect, it } from 'vitest';
import type { Message, ToolCall, Trajectory } from '../trajectory';
import type { RewardContext } from './context';
import type { RewardResult } from './contract';

/** True only when X and Y are the same type (readonly and optional modifiers included). */
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

const same: [Same<Editor.ToolCall, ToolCall>, Same<Editor.Message, Message>, Same<Editor.Trajectory, Trajectory>, Same<Editor.RewardResult, RewardResult>] = [
  true,
  true,
  true,
  true,
];
// extractTag is declared as two overloads in the editor and as `typeof extractTag` in the source: each must accept
// every call the other does (assignability matches each overload of the target with one of the source).
type Fns<C> = Omit<C, 'extractTag'>;
type Assignable<X, Y> = [X] extends [Y] ? true : false;
type EditorTag = Editor.RewardContext['extractTag'];
type SourceTag = RewardContext['extractTag'];
const sameContext: [Same<Fns<Editor.RewardContext>, Fns<RewardContext>>, Assignable<EditorTag, SourceTag>, Assignable<SourceTag, EditorTag>] = [
  true,
  true,
  true,
];

describe('reward-studio.d.ts', () => {
  it('matches the source types (checked by the type-checker; see above)', () => {
    expect([...same, ...sameContext].every(Boolean)).toBe(true);
  });
});
