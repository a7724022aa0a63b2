import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { api, errorMessage } from '@/lib/api';
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

/** Who changed what in the business (admins; API-CONTRACT §14.7). */
export default function AuditPage() {
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
  const total = log.data?.total ?? 0;
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
      {log.error && <ErrorNote>{errorMessage(log.error)}</ErrorNote>}
      {log.isLoading ? (
        <Skeleton className="h-64" />
      ) : log.data && log.data.rows.length === 0 ? (
        <EmptyState title="No hay cambios registrados con estos filtros" />
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
              <tr>
                <th className="px-4 py-3">Fecha</th>
                <th className="px-4 py-3">Usuario</th>
                <th className="px-4 py-3">Qué</th>
                <th className="px-4 py-3">Acción</th>
                <th className="px-4 py-3">Cambios</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {log.data?.rows.map((r) => (
                <tr key={r.id}>
                  <td className="whitespace-nowrap px-4 py-3 text-slate-600">{formatDateTime(r.fecha, formatting)}</td>
                  <td className="px-4 py-3">{r.usuario?.nombre ?? 'Sistema'}</td>
                  <td className="px-4 py-3">
                    {ENTIDADES[r.entidad] ?? fieldLabel(r.entidad)}
                    {r.entidad_id && r.nombres?.[r.entidad_id] && (
                      <span className="block text-xs text-slate-500">{r.nombres[r.entidad_id]}</span>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    <Badge>{ACTION_LABELS[r.accion] ?? fieldLabel(r.accion)}</Badge>
                  </td>
                  <td className="px-4 py-3 text-xs">
                    <Changes row={r} formatting={formatting} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {total > PAGE && (
        <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} de {total}
          </span>
          <div className="flex gap-2">
            <Button size="sm" variant="secondary" disabled={offset === 0} onClick={() => setOffset(offset - PAGE)}>
              Anterior
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={offset + PAGE >= total}
              onClick={() => setOffset(offset + PAGE)}
            >
              Siguiente
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
