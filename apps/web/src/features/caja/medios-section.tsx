import type { ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { MEDIO_TIPO_LABELS, MEDIO_TIPOS, type MedioPago, type MedioTipo } from '@mostrador/shared/caja';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, Input, Select } from '@/components/ui/input';
import { Badge, EmptyState } from '@/components/ui/misc';
import { RowActions } from '@/components/ui/row-actions';
import { errorMessage } from '@/lib/api';
import { useDeleteMedio, useMedios, useSaveMedio } from './caja.api';

const pct = (n: number) => `${n > 0 ? '+' : ''}${String(n).replace('.', ',')} %`;

/** The medios' columns, in the order the point of sale shows them unless a header sorts them. */
function medioColumns({
  onEdit,
  onDelete,
}: {
  onEdit: (m: MedioPago) => void;
  onDelete: (m: MedioPago) => void;
}): ColumnDef<MedioPago, unknown>[] {
  return [
    {
      id: 'nombre',
      header: 'Nombre',
      accessorKey: 'nombre',
      enableHiding: false,
      sortingFn: (a, b) => a.original.nombre.localeCompare(b.original.nombre, 'es'),
      meta: { label: 'Nombre', primary: true, className: 'font-medium text-slate-900' },
    },
    {
      id: 'tipo',
      header: 'Tipo',
      accessorFn: (m) => MEDIO_TIPO_LABELS[m.tipo],
      meta: { label: 'Tipo' },
    },
    {
      id: 'ajuste',
      header: 'Recargo / descuento',
      accessorFn: (m) => m.ajuste_porcentaje ?? 0,
      meta: { label: 'Recargo / descuento', align: 'right' },
      cell: ({ row: { original: m } }) => (m.ajuste_porcentaje ? pct(m.ajuste_porcentaje) : '—'),
    },
    {
      id: 'estado',
      header: 'Estado',
      accessorFn: (m) => (m.activo ? 0 : 1),
      meta: { label: 'Estado' },
      cell: ({ row: { original: m } }) => (
        <Badge color={m.activo ? 'green' : 'gray'}>{m.activo ? 'Activo' : 'Inactivo'}</Badge>
      ),
    },
    {
      id: 'acciones',
      header: 'Acciones',
      enableSorting: false,
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: m } }) => (
        <RowActions name={m.nombre} className="justify-end" onEdit={() => onEdit(m)} onDelete={() => onDelete(m)} />
      ),
    },
  ];
}

/** The business's medios de pago (admins): name, kind, surcharge or discount, active. */
export function MediosSection() {
  const medios = useMedios();
  const [editing, setEditing] = useState<MedioPago | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MedioPago | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const del = useDeleteMedio();
  return (
    <section className="mt-8 space-y-3" aria-labelledby="medios-title">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="min-w-0 flex-1 basis-72">
          <h2 id="medios-title" className="text-lg font-semibold text-slate-900">
            Medios de pago
          </h2>
          <p className="text-sm text-slate-500">
            Un recargo o descuento se aplica a la parte que se paga con ese medio, por ejemplo «Crédito 3 cuotas +15 %».
          </p>
        </div>
        <Button onClick={() => setEditing('new')}>
          <Plus className="h-4 w-4" /> Agregar medio
        </Button>
      </div>
      {notice && (
        <p role="status" className="rounded-md bg-blue-50 p-2 text-sm text-blue-800">
          {notice}
        </p>
      )}
      <DataTable
        screen="medios-pago"
        label="Medios de pago"
        columns={medioColumns({ onEdit: setEditing, onDelete: setDeleting })}
        rows={medios.data}
        loading={medios.isPending}
        error={medios.error ? errorMessage(medios.error, 'No se pudieron cargar los medios de pago.') : null}
        rowId={(m) => m.id}
        countLabel={['medio de pago', 'medios de pago']}
        empty={<EmptyState title="No hay medios de pago">Agregá uno para cobrar en el punto de venta.</EmptyState>}
      />
      <MedioDialog medio={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`¿Eliminar «${deleting?.nombre ?? ''}»?`}
        message="Si ya se usó en ventas o cierres, lo desactivamos en lugar de eliminarlo."
        onConfirm={async () => {
          const r = await del.mutateAsync(deleting!.id);
          setNotice(r.mensaje);
          setDeleting(null);
        }}
      />
    </section>
  );
}

function MedioDialog({ medio, onClose }: { medio: MedioPago | 'new' | null; onClose: () => void }) {
  const editing = medio && medio !== 'new' ? medio : null;
  const key = editing?.id ?? (medio ? 'new' : 'none');
  return (
    <Dialog
      open={Boolean(medio)}
      onOpenChange={(o) => !o && onClose()}
      title={editing ? `Editar ${editing.nombre}` : 'Nuevo medio de pago'}
    >
      <MedioForm key={key} medio={editing} onDone={onClose} />
    </Dialog>
  );
}

function MedioForm({ medio, onDone }: { medio: MedioPago | null; onDone: () => void }) {
  const [nombre, setNombre] = useState(medio?.nombre ?? '');
  const [tipo, setTipo] = useState<MedioTipo>(medio?.tipo ?? 'efectivo');
  const [ajuste, setAjuste] = useState(medio ? String(medio.ajuste_porcentaje).replace('.', ',') : '0');
  const [activo, setActivo] = useState(medio?.activo ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveMedio();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!nombre.trim()) next.nombre = 'Este campo es obligatorio.';
    const n = Number(ajuste.trim().replace(',', '.') || '0');
    if (!Number.isFinite(n) || n <= -100 || n > 100)
      next.ajuste_porcentaje = 'El ajuste debe estar entre −99,99 % y 100 %.';
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      await save.mutateAsync({
        id: medio?.id,
        body: { nombre: nombre.trim(), tipo, ajuste_porcentaje: n, activo },
      });
      onDone();
    } catch (err) {
      setErrors({ form: errorMessage(err, 'No se pudo guardar el medio de pago.') });
    }
  }
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field id="medio-nombre" label="Nombre" error={errors.nombre} required>
        <Input id="medio-nombre" autoFocus value={nombre} maxLength={60} onChange={(e) => setNombre(e.target.value)} />
      </Field>
      <Field id="medio-tipo" label="Tipo">
        <Select id="medio-tipo" value={tipo} onChange={(e) => setTipo(e.target.value as MedioTipo)}>
          {MEDIO_TIPOS.filter((t) => t !== 'cuenta_corriente').map((t) => (
            <option key={t} value={t}>
              {MEDIO_TIPO_LABELS[t]}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        id="medio-ajuste"
        label="Recargo (+) o descuento (−) en %"
        error={errors.ajuste_porcentaje}
        hint="Por ejemplo 15 para un recargo del 15 % o -10 para un descuento del 10 %."
      >
        <Input id="medio-ajuste" inputMode="decimal" value={ajuste} onChange={(e) => setAjuste(e.target.value)} />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={activo} onChange={(e) => setActivo(e.target.checked)} /> Activo
      </label>
      <FormActions error={errors.form ?? null} busy={save.isPending} onCancel={onDone} submitLabel="Guardar" />
    </form>
  );
}
