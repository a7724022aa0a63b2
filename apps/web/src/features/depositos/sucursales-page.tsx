import { Plus, Store } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Sucursal } from '@mostrador/shared/depositos';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { InputField } from '@/components/ui/input';
import { Badge, Card, ErrorNote, PageHeader } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { RowsSkeleton, StatusNote } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { useDeleteDeposito, useDeleteSucursal, useSaveDeposito, useSaveSucursal, useSucursales } from './depositos.api';

type Editing =
  | { kind: 'sucursal'; sucursal?: Sucursal }
  | { kind: 'deposito'; sucursal: Sucursal; deposito?: { id: string; nombre: string } };
type Deleting = { kind: 'sucursal' | 'deposito'; id: string; nombre: string };

/** The dialog's form: a sucursal (name and address) or a depósito (its name). */
function NameForm({ editing, onDone }: { editing: Editing; onDone: (message?: string) => void }) {
  const saveSucursal = useSaveSucursal();
  const saveDeposito = useSaveDeposito();
  const isSucursal = editing.kind === 'sucursal';
  const current = isSucursal ? editing.sucursal : editing.deposito;
  const [nombre, setNombre] = useState(current?.nombre ?? '');
  const [direccion, setDireccion] = useState(isSucursal ? (editing.sucursal?.direccion ?? '') : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!nombre.trim()) {
      setError('Ingresá un nombre.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (editing.kind === 'sucursal') {
        const s = await saveSucursal.mutateAsync({
          id: editing.sucursal?.id,
          body: { nombre: nombre.trim(), direccion: direccion.trim() || null },
        });
        onDone(editing.sucursal ? `Sucursal «${s.nombre}» actualizada.` : `Sucursal «${s.nombre}» creada.`);
      } else {
        const d = await saveDeposito.mutateAsync({
          id: editing.deposito?.id,
          nombre: nombre.trim(),
          sucursal_id: editing.sucursal.id,
        });
        onDone(editing.deposito ? `Depósito «${d.nombre}» actualizado.` : `Depósito «${d.nombre}» creado.`);
      }
    } catch (err) {
      setError(errorMessage(err, 'No se pudo guardar.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <InputField
        id="nombre"
        label="Nombre"
        required
        autoFocus
        value={nombre}
        maxLength={80}
        onChange={(e) => setNombre(e.target.value)}
      />
      {isSucursal && (
        <InputField
          id="direccion"
          label="Dirección"
          value={direccion}
          maxLength={200}
          onChange={(e) => setDireccion(e.target.value)}
        />
      )}
      <FormActions
        error={error}
        busy={busy}
        onCancel={() => onDone()}
        submitLabel={current ? 'Guardar cambios' : 'Crear'}
      />
    </form>
  );
}

function SucursalCard({
  s,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: {
  s: Sucursal;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (e: Editing) => void;
  onDelete: (d: Deleting) => void;
}) {
  return (
    <Card className="flex h-full flex-col">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 className="flex items-center gap-2 font-semibold text-slate-900">
            {s.nombre}
            {s.principal && <Badge color="blue">Principal</Badge>}
          </h2>
          <p className="text-sm text-slate-500">{s.direccion || 'Sin dirección'}</p>
        </div>
        <RowActions
          name={s.nombre}
          onEdit={canEdit && (() => onEdit({ kind: 'sucursal', sucursal: s }))}
          onDelete={canDelete && !s.principal && (() => onDelete({ kind: 'sucursal', id: s.id, nombre: s.nombre }))}
        />
      </div>
      <h3 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-500">Depósitos</h3>
      {s.depositos.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">Sin depósitos: sus cajas venden del depósito principal.</p>
      ) : (
        <ul className="mt-1 divide-y divide-slate-100" aria-label={`Depósitos de ${s.nombre}`}>
          {s.depositos.map((d, i) => (
            <li key={d.id} className="flex items-center justify-between gap-2 py-1.5">
              <span className="text-sm text-slate-800">
                {d.nombre}
                {d.principal && <Badge className="ml-2">Principal</Badge>}
                {i === 0 && s.cajas.length > 0 && (
                  <span className="ml-2 text-xs text-slate-500">· venden sus cajas</span>
                )}
              </span>
              <RowActions
                name={d.nombre}
                onEdit={canEdit && (() => onEdit({ kind: 'deposito', sucursal: s, deposito: d }))}
                onDelete={
                  canDelete && !d.principal && (() => onDelete({ kind: 'deposito', id: d.id, nombre: d.nombre }))
                }
              />
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <div>
          <Button
            variant="secondary"
            size="sm"
            className="mt-2"
            onClick={() => onEdit({ kind: 'deposito', sucursal: s })}
          >
            <Plus className="h-4 w-4" aria-hidden />
            Agregar depósito
          </Button>
        </div>
      )}
      <h3 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-500">Cajas</h3>
      <p className="mt-1 text-sm text-slate-700">
        {s.cajas.length ? s.cajas.map((c) => c.nombre).join(', ') : 'Sin cajas (asignalas desde Caja → Cajas).'}
      </p>
    </Card>
  );
}

function SucursalesScreen() {
  const can = useCan();
  const canEdit = can('productos', 'editar');
  const canDelete = can('productos', 'eliminar');
  const sucursales = useSucursales();
  const deleteSucursal = useDeleteSucursal();
  const deleteDeposito = useDeleteDeposito();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const title = (e: Editing) =>
    e.kind === 'sucursal'
      ? e.sucursal
        ? 'Editar sucursal'
        : 'Nueva sucursal'
      : e.deposito
        ? 'Editar depósito'
        : `Nuevo depósito en ${e.sucursal.nombre}`;

  return (
    <div>
      <PageHeader
        title="Sucursales y depósitos"
        description="Dónde está tu stock. Un solo catálogo; cada depósito tiene su stock y las cajas de una sucursal venden de su primer depósito."
        actions={
          canEdit && (
            <Button onClick={() => setEditing({ kind: 'sucursal' })}>
              <Plus className="h-4 w-4" aria-hidden />
              Nueva sucursal
            </Button>
          )
        }
      />
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      {sucursales.error ? (
        <ErrorNote>{errorMessage(sucursales.error, 'No se pudieron cargar las sucursales.')}</ErrorNote>
      ) : sucursales.isLoading ? (
        <RowsSkeleton />
      ) : (
        <>
          {(sucursales.data ?? []).length === 1 && (sucursales.data ?? [])[0].depositos.length === 1 && (
            <p className="mb-4 flex items-center gap-2 rounded-lg bg-slate-50 p-3 text-sm text-slate-600">
              <Store className="h-4 w-4 shrink-0" aria-hidden />
              Tenés un solo depósito: todo tu stock está ahí. Agregá una sucursal o un depósito para repartirlo y
              transferir mercadería.
            </p>
          )}
          <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label="Sucursales">
            {(sucursales.data ?? []).map((s) => (
              <li key={s.id}>
                <SucursalCard
                  s={s}
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={setEditing}
                  onDelete={setDeleting}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={editing ? title(editing) : ''}
      >
        {editing && (
          <NameForm
            editing={editing}
            onDone={(message) => {
              setEditing(null);
              if (message) setNotice(message);
            }}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={deleting?.kind === 'sucursal' ? 'Eliminar sucursal' : 'Eliminar depósito'}
        message={
          deleting?.kind === 'sucursal'
            ? `¿Estás seguro de que querés eliminar la sucursal «${deleting.nombre}» y sus depósitos vacíos? No se puede si tiene cajas o stock.`
            : `¿Estás seguro de que querés eliminar el depósito «${deleting?.nombre ?? ''}»? No se puede si tiene stock o movimientos.`
        }
        failure="No se pudo eliminar."
        onConfirm={async () => {
          const d = deleting!;
          await (d.kind === 'sucursal' ? deleteSucursal : deleteDeposito).mutateAsync(d.id);
          setNotice(`${d.kind === 'sucursal' ? 'Sucursal' : 'Depósito'} «${d.nombre}» eliminado.`);
        }}
      />
    </div>
  );
}

/** /sucursales (issue 38): the business's sucursales and depósitos, gated by `productos`. */
export default function SucursalesPage() {
  return (
    <PermissionGate modulo="productos">
      <SucursalesScreen />
    </PermissionGate>
  );
}
