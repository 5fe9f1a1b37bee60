import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import { statusShares } from './statusShares';

describe('statusShares', () => {
  it('divides null rows and failed rows (error + timed out) by all rows', () => {
    const { Pending, Ok, Null, Error, TimedOut } = RowStatus;
    // 8 rows: 2 null → 2/8 = 0.25; 1 error + 2 timed out → 3/8 = 0.375 (ok and pending count only in the 8).
    expect(statusShares(Uint8Array.from([Ok, Null, Error, TimedOut, Null, Ok, Pending, TimedOut]))).toEqual({ nulls: 0.25, failed: 0.375 });
    expect(statusShares([Ok, Ok])).toEqual({ nulls: 0, failed: 0 });
    expect(statusShares([])).toEqual({ nulls: NaN, failed: NaN });
  });
});
