import { ChevronRight, FileText } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, Route, Routes, useNavigate, useSearchParams } from 'react-router';
import { PRESUPUESTO_ESTADO_LABELS, PRESUPUESTO_ESTADOS, type PresupuestoEstado } from '@mostrador/shared/presupuestos';
import { useBusiness } from '@/app/business-context';
import { NewButton } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/input';
import { EmptyState, ErrorNote, FilterBar, PageHeader, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { PermissionGate } from '../permissions/permission-gate';
import { useCan } from '../permissions/permissions.api';
import { PresupuestoEstadoBadge } from './documento-ui';
import { PresupuestoDetailPage } from './presupuesto-detail';
import { PresupuestoFormPage } from './presupuesto-form';
import { usePresupuestos } from './presupuestos.api';

const PAGE = 50;

function PresupuestoList() {
  const { formatting } = useBusiness();
  const can = useCan();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const estado = (params.get('estado') ?? '') as PresupuestoEstado | '';
  const clienteId = params.get('cliente_id') ?? '';
  const [offset, setOffset] = useState(0);
  const q = usePresupuestos({ estado, cliente_id: clienteId, limit: PAGE, offset });
  const rows = q.data?.presupuestos ?? [];
  const total = q.data?.total ?? 0;

  return (
    <div>
      <PageHeader
        title="Presupuestos"
        description="Cotizaciones a clientes: enviálas, marcalas aceptadas y convertilas en venta o remito."
        actions={
          can('presupuestos', 'editar') && (
            <NewButton onClick={() => navigate('/presupuestos/nuevo')}>Nuevo presupuesto</NewButton>
          )
        }
      />
      <FilterBar label="Filtrar presupuestos" className="sm:grid-cols-3">
        <Field id="presu-estado" label="Estado">
          <Select
            id="presu-estado"
            value={estado}
            onChange={(e) => {
              setOffset(0);
              const next = new URLSearchParams(params);
              if (e.target.value) next.set('estado', e.target.value);
              else next.delete('estado');
              setParams(next, { replace: true });
            }}
          >
            <option value="">Todos</option>
            {PRESUPUESTO_ESTADOS.map((e) => (
              <option key={e} value={e}>
                {PRESUPUESTO_ESTADO_LABELS[e]}
              </option>
            ))}
          </Select>
        </Field>
      </FilterBar>
      {q.error && <ErrorNote>{errorMessage(q.error, 'No se pudieron cargar los presupuestos.')}</ErrorNote>}
      {q.isLoading ? (
        <Skeleton className="h-48" />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<FileText className="h-8 w-8" />}
          title={estado ? 'No hay presupuestos en ese estado' : 'Todavía no hay presupuestos'}
        >
          {can('presupuestos', 'editar') && !estado && 'Creá el primero con «Nuevo presupuesto».'}
        </EmptyState>
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="px-4 py-2">Presupuesto</th>
                <th className="hidden px-4 py-2 sm:table-cell">Cliente</th>
                <th className="hidden px-4 py-2 sm:table-cell">Fecha</th>
                <th className="hidden px-4 py-2 md:table-cell">Vence</th>
                <th className="px-4 py-2">Estado</th>
                <th className="px-4 py-2 text-right">Total</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((p) => (
                <tr key={p.id} className="hover:bg-slate-50">
                  <td className="px-4 py-2">
                    <Link
                      to={`/presupuestos/${p.id}`}
                      className="inline-flex items-center gap-1 whitespace-nowrap font-medium text-slate-900 hover:text-blue-700"
                    >
                      #{p.numero}
                      <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden />
                    </Link>
                    <span className="block text-xs text-slate-500 sm:hidden">{p.cliente_nombre}</span>
                  </td>
                  <td className="hidden px-4 py-2 text-slate-700 sm:table-cell">{p.cliente_nombre}</td>
                  <td className="hidden whitespace-nowrap px-4 py-2 text-slate-600 sm:table-cell">
                    {formatDate(p.fecha, formatting)}
                  </td>
                  <td className="hidden whitespace-nowrap px-4 py-2 text-slate-600 md:table-cell">
                    {formatDate(p.vence, formatting)}
                  </td>
                  <td className="px-4 py-2">
                    <PresupuestoEstadoBadge estado={p.estado} />
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 text-right font-medium tabular-nums">
                    {formatMoney(p.total, formatting)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {total > PAGE && (
            <div className="flex items-center justify-between border-t border-slate-200 px-4 py-2 text-sm text-slate-600">
              <span>
                {offset + 1}–{Math.min(offset + PAGE, total)} de {total}
              </span>
              <span className="flex gap-2">
                <button
                  type="button"
                  disabled={offset === 0}
                  onClick={() => setOffset(Math.max(0, offset - PAGE))}
                  className="disabled:opacity-40"
                >
                  Anteriores
                </button>
                <button
                  type="button"
                  disabled={offset + PAGE >= total}
                  onClick={() => setOffset(offset + PAGE)}
                  className="disabled:opacity-40"
                >
                  Siguientes
                </button>
              </span>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

export default function PresupuestosPage() {
  return (
    <PermissionGate modulo="presupuestos">
      <Routes>
        <Route index element={<PresupuestoList />} />
        <Route
          path="nuevo"
          element={
            <PermissionGate modulo="presupuestos" accion="editar">
              <PresupuestoFormPage />
            </PermissionGate>
          }
        />
        <Route path=":id" element={<PresupuestoDetailPage />} />
        <Route
          path=":id/editar"
          element={
            <PermissionGate modulo="presupuestos" accion="editar">
              <PresupuestoFormPage />
            </PermissionGate>
          }
        />
        <Route path="*" element={<Navigate to="/presupuestos" replace />} />
      </Routes>
    </PermissionGate>
  );
}
