import { describe, expect, it } from 'vitest';
import { allPermissions, can, PERMISSION_KEYS, resolveAction, resolveModule } from './permissions.js';

const member = (keys: string[]) => ({
  has_full_access: false,
  permissions: { ...allPermissions(false), ...Object.fromEntries(keys.map((k) => [k, true])) },
});

describe('permission gate rule (SPEC §5, §6)', () => {
  it('has 40 flags: 10 modules × ver, editar, eliminar, asignar', () => {
    expect(PERMISSION_KEYS).toHaveLength(40);
    expect(new Set(PERMISSION_KEYS).size).toBe(40);
  });

  it('lets full access pass everything, even unknown modules', () => {
    expect(can({ has_full_access: true, permissions: allPermissions(false) }, 'finanzas', 'eliminar')).toBe(true);
  });

  it('checks the module flag of the action', () => {
    const p = member(['puede_ver_ventas', 'puede_editar_productos']);
    expect(can(p, 'ventas', 'ver')).toBe(true);
    expect(can(p, 'ventas', 'editar')).toBe(false);
    expect(can(p, 'inventario', 'editar')).toBe(true);
    expect(can(p, 'productos', 'editar')).toBe(true);
  });

  it('maps inventario and productos to productos, treats an unknown action as ver', () => {
    expect(resolveModule('inventario')).toBe('productos');
    expect(resolveModule('stock')).toBe('stock');
    expect(resolveModule('desconocido')).toBeUndefined();
    expect(resolveAction('borrar')).toBe('ver');
    expect(can(member(['puede_ver_clientes']), 'clientes', 'cualquiera')).toBe(true);
  });

  it('denies everything while the permissions are missing', () => {
    expect(can(undefined, 'ventas', 'ver')).toBe(false);
    expect(can(null, 'ventas', 'ver')).toBe(false);
  });
});
