import { AdminGate } from '@/features/permissions/permission-gate';
import type { ColumnDef } from '@tanstack/react-table';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useBusiness } from '@/app/business-context';
import { DataTable } from '@/components/data-table';
import { Field, Input, Select } from '@/components/ui/input';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/misc';
import { api } from '@/lib/api';
import { formatDateTime, type Formatting } from '@/lib/format';
import { ACTION_LABELS, fieldLabel, showValue } from './describe';

interface AuditRow {
  id: string;
  fecha: string;
  usuario: { id: string; nombre: string; email: string } | null;
  entidad: string;
  entidad_id: string | null;
  accion: string;
  antes: Record<string, unknown> | null;
  despues: Record<string, unknown> | null;
  /** What the records the row mentions are called, by id. */
  nombres?: Record<string, string>;
}

const ENTIDADES: Record<string, string> = {
  negocio: 'Negocio',
  miembro: 'Miembro',
  permisos: 'Permisos',
  invitacion: 'Invitación',
  configuracion: 'Configuración',
  plan: 'Plan',
  cliente: 'Cliente',
  producto: 'Producto',
  stock: 'Stock',
  servicio: 'Servicio',
  suscripcion: 'Suscripción',
  categoria: 'Categoría',
  importacion: 'Importación',
  venta: 'Venta',
  proveedor: 'Proveedor',
  compra: 'Compra',
  categoria_financiera: 'Categoría financiera',
  movimiento: 'Movimiento',
  cuenta: 'Cuenta',
  caja: 'Caja',
  turno: 'Turno de caja',
  cobro: 'Cobro',
  medio_pago: 'Medio de pago',
  sucursal: 'Sucursal',
  deposito: 'Depósito',
  transferencia: 'Transferencia',
};

const PAGE = 50;

function Changes({ row, formatting }: { row: AuditRow; formatting: Formatting }) {
  const { antes, despues } = row;
  const keys = [...new Set([...Object.keys(antes ?? {}), ...Object.keys(despues ?? {})])];
  if (keys.length === 0) return <span className="text-slate-400">—</span>;
  const show = (k: string, v: unknown) => showValue(k, v, formatting, row.nombres);
  return (
    <ul className="space-y-0.5">
      {keys.slice(0, 6).map((k) => (
        <li key={k} className="break-words">
          <span className="font-medium text-slate-700">{fieldLabel(k)}:</span>{' '}
          {antes && <span className="text-red-700 line-through">{show(k, antes[k])}</span>}
          {antes && despues && ' → '}
          {despues && <span className="text-emerald-700">{show(k, despues[k])}</span>}
        </li>
      ))}
      {keys.length > 6 && <li className="text-slate-400">y {keys.length - 6} campos más</li>}
    </ul>
  );
}

/** The log's columns, newest first: the API pages it and sorts it by nothing else. */
function auditColumns(formatting: Formatting): ColumnDef<AuditRow, unknown>[] {
  const columns: ColumnDef<AuditRow, unknown>[] = [
    {
      id: 'fecha',
      header: 'Fecha',
      meta: { label: 'Fecha', primary: true, className: 'whitespace-nowrap text-slate-600 align-top' },
      cell: ({ row }) => formatDateTime(row.original.fecha, formatting),
    },
    {
      id: 'usuario',
      header: 'Usuario',
      meta: { label: 'Usuario', className: 'align-top' },
      cell: ({ row }) => row.original.usuario?.nombre ?? 'Sistema',
    },
    {
      id: 'que',
      header: 'Qué',
      meta: { label: 'Qué', className: 'align-top' },
      cell: ({ row: { original: r } }) => (
        <span>
          {ENTIDADES[r.entidad] ?? fieldLabel(r.entidad)}
          {r.entidad_id && r.nombres?.[r.entidad_id] && (
            <span className="block text-xs text-slate-500">{r.nombres[r.entidad_id]}</span>
          )}
        </span>
      ),
    },
    {
      id: 'accion',
      header: 'Acción',
      meta: { label: 'Acción', className: 'align-top' },
      cell: ({ row: { original: r } }) => <Badge>{ACTION_LABELS[r.accion] ?? fieldLabel(r.accion)}</Badge>,
    },
    {
      id: 'cambios',
      header: 'Cambios',
      meta: { label: 'Cambios', className: 'align-top text-xs' },
      cell: ({ row }) => <Changes row={row.original} formatting={formatting} />,
    },
  ];
  return columns.map((c) => ({ ...c, enableSorting: false }));
}

/** Who changed what in the business (admins; API-CONTRACT §14.7). */
export default function AuditPage() {
  return (
    <AdminGate>
      <AuditLog />
    </AdminGate>
  );
}

function AuditLog() {
  const { businessId, formatting } = useBusiness();
  const [filters, setFilters] = useState({ usuario_id: '', entidad: '', fecha_desde: '', fecha_hasta: '' });
  const [offset, setOffset] = useState(0);
  const members = useQuery({
    queryKey: ['members', businessId],
    queryFn: () =>
      api.get<{ usuario_id: string; nombre: string; apellido: string | null }[]>(`/businesses/${businessId}/usuarios`),
    enabled: Boolean(businessId),
  });
  const log = useQuery({
    queryKey: ['audit', businessId, filters, offset],
    queryFn: () => api.page<AuditRow>(`/businesses/${businessId}/auditoria`, { ...filters, limit: PAGE, offset }),
    enabled: Boolean(businessId),
    placeholderData: keepPreviousData,
  });
  const set = (k: keyof typeof filters, v: string) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setOffset(0);
  };
  return (
    <div>
      <PageHeader
        title="Registro de cambios"
        description="Quién cambió qué en este negocio: dinero, stock, precios, permisos, miembros, configuración y plan."
      />
      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field id="aud-usuario" label="Usuario">
            <Select id="aud-usuario" value={filters.usuario_id} onChange={(e) => set('usuario_id', e.target.value)}>
              <option value="">Todos</option>
              {(members.data ?? []).map((m) => (
                <option key={m.usuario_id} value={m.usuario_id}>
                  {[m.nombre, m.apellido].filter(Boolean).join(' ')}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="aud-entidad" label="Qué">
            <Select id="aud-entidad" value={filters.entidad} onChange={(e) => set('entidad', e.target.value)}>
              <option value="">Todo</option>
              {Object.entries(ENTIDADES).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="aud-desde" label="Desde">
            <Input
              id="aud-desde"
              type="date"
              value={filters.fecha_desde}
              onChange={(e) => set('fecha_desde', e.target.value)}
            />
          </Field>
          <Field id="aud-hasta" label="Hasta">
            <Input
              id="aud-hasta"
              type="date"
              value={filters.fecha_hasta}
              onChange={(e) => set('fecha_hasta', e.target.value)}
            />
          </Field>
        </div>
      </Card>
      <DataTable
        screen="auditoria"
        label="Registro de cambios"
        columns={auditColumns(formatting)}
        query={log}
        loadError="No se pudo cargar el registro de cambios."
        rowId={(r) => r.id}
        pagination={{
          page: offset / PAGE,
          pageSize: PAGE,
          total: log.data?.total ?? 0,
          onPage: (p) => setOffset(p * PAGE),
          label: 'cambios',
          one: 'cambio',
        }}
        empty={<EmptyState title="No hay cambios registrados con estos filtros" />}
      />
    </div>
  );
}
