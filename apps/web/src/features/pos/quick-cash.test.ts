import { describe, expect, it } from 'vitest';
import { quickCash } from './quick-cash';

describe('quickCash', () => {
  it('offers the next round amounts above the total, smallest first', () => {
    expect(quickCash(1_350_00)).toEqual([1_500_00, 2_000_00, 10_000_00]);
    expect(quickCash(8_730_50)).toEqual([9_000_00, 10_000_00, 20_000_00]);
    expect(quickCash(45_00)).toEqual([500_00, 1_000_00, 2_000_00]);
  });

  it('skips an amount equal to the total (that is "Justo") and offers nothing for an empty sale', () => {
    expect(quickCash(2_000_00)).toEqual([10_000_00, 20_000_00]);
    expect(quickCash(20_000_00)).toEqual([]);
    expect(quickCash(20_000_01)).toEqual([20_500_00, 21_000_00, 22_000_00]);
    expect(quickCash(0)).toEqual([]);
  });
});
