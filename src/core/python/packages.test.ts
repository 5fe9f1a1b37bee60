import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHIPPED_WHEELS, wheelsFor } from './packages';

describe('shipped Python packages', () => {
  it('lists each wheel with the SHA-256 of the file in vendor/python', () => {
    for (const w of SHIPPED_WHEELS) {
      const bytes = readFileSync(new URL(`../../../vendor/python/${w.file}`, import.meta.url));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(w.sha256);
    }
  });

  it('gives sympy after mpmath, which it imports, and nothing for the standard library', () => {
    expect(wheelsFor(['re', 'sympy']).map((w) => w.file)).toEqual(['mpmath-1.3.0-py3-none-any.whl', 'sympy-1.14.0-py3-none-any.whl']);
    expect(wheelsFor(['mpmath', 'sympy']).map((w) => w.file)).toEqual(['mpmath-1.3.0-py3-none-any.whl', 'sympy-1.14.0-py3-none-any.whl']);
    expect(wheelsFor(['math', 'json', 'math_verify'])).toEqual([]);
  });
});
