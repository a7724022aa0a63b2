import { useState } from 'react';
import {
  ACTION_TITLES,
  ACTIONS,
  allPermissions,
  MODULE_LABELS,
  MODULES,
  permissionKey,
  permissionPayload,
  setModule,
  type CounterControls,
  type MemberRole,
  type PermissionMap,
  type PermissionPayload,
} from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { parseDecimal } from '@/lib/decimal';

export interface PermissionTarget {
  userId: string;
  name: string;
  email: string;
  rol: MemberRole;
  accesoTotal: boolean;
  permisos: PermissionMap;
  controles: CounterControls;
}

const checkbox =
  'h-4 w-4 rounded border-slate-300 text-blue-600 focus:ring-2 focus:ring-blue-500/40 disabled:opacity-40';

/** Modules × ver/editar/eliminar/asignar, with a whole-row toggle; disabled under full access. */
export function PermissionGrid({
  value,
  onChange,
  disabled,
}: {
  value: PermissionMap;
  onChange: (v: PermissionMap) => void;
  disabled?: boolean;
}) {
  return (
    <div className="-mx-1 overflow-x-auto">
      <table className="w-full min-w-[17rem] border-separate border-spacing-0 text-sm">
        <caption className="sr-only">Permisos por módulo</caption>
        <thead>
          <tr className="text-xs text-slate-500">
            <th scope="col" className="px-1 py-2 text-left font-medium">
              Módulo
            </th>
            {ACTIONS.map((a) => (
              <th key={a} scope="col" className="w-12 px-0.5 py-2 text-center font-medium sm:w-16">
                {ACTION_TITLES[a]}
              </th>
            ))}
            <th scope="col" className="w-10 px-0.5 py-2 text-center font-medium sm:w-14">
              Todo
            </th>
          </tr>
        </thead>
        <tbody>
          {MODULES.map((m) => {
            const keys = ACTIONS.map((a) => permissionKey(a, m));
            const all = keys.every((k) => value[k]);
            return (
              <tr key={m} className="odd:bg-slate-50">
                <th scope="row" className="rounded-l-md px-1 py-2 text-left font-medium text-slate-700">
                  {MODULE_LABELS[m]}
                </th>
                {ACTIONS.map((a) => {
                  const k = permissionKey(a, m);
                  return (
                    <td key={a} className="px-0.5 py-2 text-center">
                      <input
                        type="checkbox"
                        className={checkbox}
                        checked={value[k]}
                        disabled={disabled}
                        aria-label={`${ACTION_TITLES[a]} ${MODULE_LABELS[m]}`}
                        onChange={(e) => onChange({ ...value, [k]: e.target.checked })}
                      />
                    </td>
                  );
                })}
                <td className="rounded-r-md px-0.5 py-2 text-center">
                  <input
                    type="checkbox"
                    className={checkbox}
                    checked={all}
                    disabled={disabled}
                    aria-label={`Todo ${MODULE_LABELS[m]}`}
                    onChange={(e) => onChange(setModule(value, m, e.target.checked))}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Selling at the point of sale searches the catalogue and the customers: those modules' Ver. */
const POS_NEEDS = [permissionKey('ver', 'productos'), permissionKey('ver', 'clientes')] as const;

/** Says what a cashier is missing to sell at the POS, and adds it on request. */
function PosNeeds({ flags, onAdd }: { flags: PermissionMap; onAdd: (v: PermissionMap) => void }) {
  const missing = POS_NEEDS.filter((k) => !flags[k]);
  if (!flags[permissionKey('editar', 'ventas')] || missing.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="note">
      <p className="min-w-0 flex-1">
        Para vender en el punto de venta también necesita <strong>Ver</strong> en Productos y Clientes (buscar productos
        y elegir el cliente).
      </p>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => onAdd({ ...flags, ...Object.fromEntries(missing.map((k) => [k, true])) })}
      >
        Agregar esos permisos
      </Button>
    </div>
  );
}

/** Approve a pending user, or edit a member's role and permissions. */
export function PermissionDialog({
  mode,
  target,
  onOpenChange,
  onSave,
}: {
  mode: 'aprobar' | 'editar';
  target: PermissionTarget | null;
  onOpenChange: (open: boolean) => void;
  onSave: (payload: PermissionPayload) => Promise<unknown>;
}) {
  return (
    <Dialog
      open={target !== null}
      onOpenChange={onOpenChange}
      title={mode === 'aprobar' ? 'Aprobar usuario' : 'Editar permisos'}
      description={target ? `${target.name} · ${target.email}` : undefined}
      className="max-w-xl"
    >
      {target && (
        <PermissionForm
          key={target.userId}
          mode={mode}
          target={target}
          onSave={onSave}
          onCancel={() => onOpenChange(false)}
        />
      )}
    </Dialog>
  );
}

function PermissionForm({
  mode,
  target,
  onSave,
  onCancel,
}: {
  mode: 'aprobar' | 'editar';
  target: PermissionTarget;
  onSave: (payload: PermissionPayload) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [rol, setRol] = useState<MemberRole>(target.rol);
  const [full, setFull] = useState(target.accesoTotal);
  const [flags, setFlags] = useState<PermissionMap>(target.permisos);
  const [controls, setControls] = useState<CounterControls>(target.controles);
  const [maxText, setMaxText] = useState(
    target.controles.descuento_maximo === null ? '' : String(target.controles.descuento_maximo).replace('.', ','),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const admin = rol === 'admin';

  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const empty = maxText.trim() === '';
        const max = empty ? null : parseDecimal(maxText.replace('%', ''), 2);
        if (!empty && (max === null || max > 10_000)) {
          setError('El descuento máximo es un porcentaje de 0 a 100, o vacío para no limitarlo.');
          return;
        }
        setBusy(true);
        setError(null);
        try {
          await onSave(
            permissionPayload(rol, full, flags, { ...controls, descuento_maximo: max === null ? null : max / 100 }),
          );
          onCancel();
        } catch (err) {
          setError(errorMessage(err, 'No se pudieron guardar los permisos.'));
        } finally {
          setBusy(false);
        }
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="perm-rol" label="Rol">
          <Select id="perm-rol" value={rol} onChange={(e) => setRol(e.target.value as MemberRole)}>
            <option value="empleado">Empleado</option>
            <option value="admin">Administrador</option>
          </Select>
        </Field>
        <label className="flex items-center gap-2 self-end rounded-lg border border-slate-200 px-3 py-2.5 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className={checkbox}
            checked={full || admin}
            disabled={admin}
            onChange={(e) => setFull(e.target.checked)}
          />
          Acceso total
        </label>
      </div>
      {admin ? (
        <p className="rounded-md bg-blue-50 p-3 text-sm text-blue-800">
          Un administrador tiene acceso a todos los módulos y gestiona el equipo del negocio.
        </p>
      ) : full ? (
        <p className="rounded-md bg-blue-50 p-3 text-sm text-blue-800">
          Con acceso total ve, edita, elimina y asigna en todos los módulos.
        </p>
      ) : (
        <p className="text-sm text-slate-500">Marcá lo que puede hacer en cada módulo.</p>
      )}
      <PermissionGrid
        value={full || admin ? allPermissions(true) : flags}
        onChange={setFlags}
        disabled={full || admin}
      />
      {!full && !admin && <PosNeeds flags={flags} onAdd={setFlags} />}
      {!full && !admin && (
        <fieldset className="space-y-2 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">En el mostrador</legend>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className={checkbox}
              checked={controls.ver_costos}
              onChange={(e) => setControls((c) => ({ ...c, ver_costos: e.target.checked }))}
            />
            Ver costos, márgenes y ganancia estimada
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className={checkbox}
              checked={controls.cambiar_precios}
              onChange={(e) => setControls((c) => ({ ...c, cambiar_precios: e.target.checked }))}
            />
            Cambiar precios y hacer cualquier descuento en el punto de venta
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className={checkbox}
              checked={controls.exceder_credito}
              onChange={(e) => setControls((c) => ({ ...c, exceder_credito: e.target.checked }))}
            />
            Vender en cuenta corriente por encima del límite de crédito del cliente
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className={checkbox}
              checked={controls.cerrar_turno}
              onChange={(e) => setControls((c) => ({ ...c, cerrar_turno: e.target.checked }))}
            />
            Cerrar los turnos de caja que abre (si no, los cierra alguien con acceso total)
          </label>
          {!controls.cambiar_precios && (
            <Field
              id="perm-descuento"
              label="Descuento máximo sin autorización (%)"
              hint="Vacío: sin límite. 0: no puede hacer descuentos."
            >
              <Input
                id="perm-descuento"
                inputMode="decimal"
                className="w-28"
                value={maxText}
                onChange={(e) => setMaxText(e.target.value)}
              />
            </Field>
          )}
        </fieldset>
      )}
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" loading={busy}>
          {mode === 'aprobar' ? 'Aprobar' : 'Guardar permisos'}
        </Button>
      </div>
    </form>
  );
}
