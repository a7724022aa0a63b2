/**
 * The option a combobox's arrow keys move to among `count` options (-1: none yet). ArrowDown
 * from none is the first and ArrowUp the last; both stop at the ends, so a held key does not
 * jump around. Other keys leave it where it is.
 */
export function moveActive(active: number, count: number, key: string): number {
  if (count <= 0) return -1;
  if (key === 'ArrowDown') return active < 0 ? 0 : Math.min(active + 1, count - 1);
  if (key === 'ArrowUp') return active < 0 ? count - 1 : Math.max(active - 1, 0);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return Math.min(active, count - 1);
}
