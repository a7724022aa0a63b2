import { describe, expect, it } from 'vitest';
import { moveActive } from './listbox';

describe('combobox arrow keys', () => {
  it('goes down from none to the first, up from none to the last, and stops at the ends', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 3, 'ArrowDown')).toBe(1);
    expect(moveActive(2, 3, 'ArrowDown')).toBe(2);
    expect(moveActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(2, 3, 'ArrowUp')).toBe(1);
    expect(moveActive(0, 3, 'ArrowUp')).toBe(0);
    expect(moveActive(1, 3, 'Home')).toBe(0);
    expect(moveActive(1, 3, 'End')).toBe(2);
  });

  it('has nothing to move to without options, and stays inside a shorter list', () => {
    expect(moveActive(-1, 0, 'ArrowDown')).toBe(-1);
    expect(moveActive(4, 2, 'x')).toBe(1);
    expect(moveActive(-1, 2, 'x')).toBe(-1);
  });
});
