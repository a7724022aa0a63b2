import { describe, expect, it } from 'vitest';
import { lineShares, returnShare } from './devoluciones.js';

describe('lineShares', () => {
  it('shares the total by subtotal, largest remainder first, adding up exactly', () => {
    expect(lineShares(356666, [300000, 66666])).toEqual([291818, 64848]);
    expect(lineShares(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(lineShares(0, [500, 0])).toEqual([0, 0]);
    expect(lineShares(7, [0, 0])).toEqual([0, 7]);
    const shares = lineShares(99_999_999_999_999, [33_333_333_333_333, 33_333_333_333_333, 1]);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(99_999_999_999_999);
  });
});

describe('returnShare', () => {
  it('rounds what was returned so far and lets the last return take what is left', () => {
    // A 1-cent share of 3 units: 0, 0 (rounded down), then the last takes the cent.
    expect(returnShare(1, 3000, 0, 0, 1000)).toBe(0);
    expect(returnShare(1, 3000, 2000, 0, 1000)).toBe(1);
    // 2 of 3 units at once, then the last.
    expect(returnShare(200, 3000, 0, 0, 2000)).toBe(133);
    expect(returnShare(200, 3000, 2000, 133, 1000)).toBe(67);
    // Many small returns never add up to more than the share.
    let back = 0;
    for (let q = 0; q < 1000; q += 1) back += returnShare(333, 1000, q, back, 1);
    expect(back).toBe(333);
  });
});
