import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataAgeNotice, noteDataAge } from './data-age';

describe('DataAgeNotice', () => {
  it('says how old the report data are only when the replica lags more than a few seconds', () => {
    render(<DataAgeNotice />);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => noteDataAge(new Headers({ 'X-Data-Age': '2' })));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => noteDataAge(new Headers({ 'X-Data-Age': '42' })));
    expect(screen.getByRole('status').textContent).toContain('Datos de hace 42 s');
    act(() => noteDataAge(new Headers({ 'X-Data-Age': '300' })));
    expect(screen.getByRole('status').textContent).toContain('Datos de hace 5 min');
    act(() => noteDataAge(new Headers({ 'X-Data-Age': '0' })));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
