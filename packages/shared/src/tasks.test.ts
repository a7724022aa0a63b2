import { describe, expect, it } from 'vitest';
import {
  instantDate,
  instantToLocalInput,
  isInstantInput,
  parseInstant,
  taskColor,
  taskInput,
  taskListQuery,
  zonedToInstant,
} from './tasks.js';

const BA = 'America/Argentina/Buenos_Aires';

describe('dates in a time zone', () => {
  it('reads a date as 00:00 and a local date-time in the zone', () => {
    expect(zonedToInstant('2026-03-20', BA).toISOString()).toBe('2026-03-20T03:00:00.000Z');
    expect(zonedToInstant('2026-03-20T18:30', BA).toISOString()).toBe('2026-03-20T21:30:00.000Z');
    expect(zonedToInstant('2026-03-20T18:30:15.250', BA).toISOString()).toBe('2026-03-20T21:30:15.250Z');
    expect(zonedToInstant('2026-01-15T10:00', 'Europe/Madrid').toISOString()).toBe('2026-01-15T09:00:00.000Z');
    expect(zonedToInstant('2026-07-15T10:00', 'Europe/Madrid').toISOString()).toBe('2026-07-15T08:00:00.000Z');
  });

  it('handles the days daylight saving time changes', () => {
    // New York springs forward at 02:00 on 8 March 2026: 02:30 does not exist.
    expect(zonedToInstant('2026-03-08T01:59', 'America/New_York').toISOString()).toBe('2026-03-08T06:59:00.000Z');
    expect(zonedToInstant('2026-03-08T03:00', 'America/New_York').toISOString()).toBe('2026-03-08T07:00:00.000Z');
    expect(instantToLocalInput(zonedToInstant('2026-03-08T02:30', 'America/New_York'), 'America/New_York')).toMatch(
      /^2026-03-08T0[13]:30$/,
    );
    // Madrid falls back at 03:00 on 25 October 2026: midnight is unambiguous.
    expect(zonedToInstant('2026-10-25', 'Europe/Madrid').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(zonedToInstant('2026-10-26', 'Europe/Madrid').toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });

  it('keeps inputs with an offset and round-trips to local inputs and dates', () => {
    expect(parseInstant('2026-03-21T10:00:00-05:00', BA).toISOString()).toBe('2026-03-21T15:00:00.000Z');
    expect(parseInstant('2026-03-21T10:00:00Z', BA).toISOString()).toBe('2026-03-21T10:00:00.000Z');
    expect(parseInstant('2026-03-21T10:00', BA).toISOString()).toBe('2026-03-21T13:00:00.000Z');
    expect(instantToLocalInput('2026-03-21T13:00:00.000Z', BA)).toBe('2026-03-21T10:00');
    expect(instantDate('2026-03-16T02:00:00.000Z', BA)).toBe('2026-03-15');
    expect(instantDate('2026-03-16T03:00:00.000Z', BA)).toBe('2026-03-16');
  });

  it('accepts only real dates and times', () => {
    for (const ok of [
      '2026-03-20',
      '2026-03-20T10:00',
      '2026-03-20 10:00:59',
      '2026-03-20T10:00:00.000Z',
      '2024-02-29',
    ])
      expect(isInstantInput(ok), ok).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-03-20T24:00', '2026-03-20T10:60', '20/03/2026', 'hoy', ''])
      expect(isInstantInput(bad), bad).toBe(false);
  });
});

describe('task rules', () => {
  it('colours by state first, then by priority', () => {
    expect(taskColor('completada', 'urgente')).toBe('#10b981');
    expect(taskColor('en_progreso', 'alta')).toBe('#3b82f6');
    expect(taskColor('pendiente', 'urgente')).toBe('#ef4444');
    expect(taskColor('pausada', 'alta')).toBe('#f59e0b');
    expect(taskColor('cancelada', 'media')).toBe('#6b7280');
    expect(taskColor('pendiente', 'baja')).toBe('#6b7280');
  });

  it('parses the body with its aliases and the client spellings', () => {
    const v = taskInput.parse({
      titulo: ' Hacer ',
      asignada_a: { id: '6f1c2a4e-8b1d-4c3e-9a2b-1d2e3f4a5b6c', nombre: 'Luis' },
      estado: 'En Progreso',
      fecha_fin: '',
    });
    expect(v).toMatchObject({
      titulo: 'Hacer',
      asignada_a: '6f1c2a4e-8b1d-4c3e-9a2b-1d2e3f4a5b6c',
      estado: 'en_progreso',
      fecha_fin: null,
    });
    const q = taskListQuery.parse({ estado: 'pendiente, pausada', por_pagina: '500' });
    expect(q).toMatchObject({ estado: ['pendiente', 'pausada'], pagina: 1, por_pagina: 100 });
  });
});
