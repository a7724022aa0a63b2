import { describe, expect, it } from 'vitest';
import { normalizeCuit } from './cuit.js';

describe('CUIT/CUIL', () => {
  it.each([
    ['20-12345678-6', '20-12345678-6'],
    ['20123456786', '20-12345678-6'],
    ['30 71234567 1', '30-71234567-1'],
    ['27-28033514-8', '27-28033514-8'],
  ])('accepts %s', (input, out) => {
    expect(normalizeCuit(input)).toBe(out);
  });

  it.each([['20-12345678-0'], ['2012345678'], ['20-1234567a-6'], ['']])('refuses %s', (input) => {
    expect(normalizeCuit(input)).toBeNull();
  });
});
