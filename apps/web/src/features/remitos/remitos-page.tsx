import { ChevronRight, Receipt, Truck } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, Route, Routes, useNavigate, useSearchParams } from 'react-router';
import type { Customer } from '@mostrador/shared/customers';
import { REMITO_ESTADO_LABELS, REMITO_ESTADOS, type RemitoEstado, type RemitoResumen } from '@mostrador/shared/remitos';
import { useBusiness } from '@/app/business-context';
import { Button, NewButton } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/input';
import { EmptyState, ErrorNote, FilterBar, PageHeader, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, todayIn } from '@/lib/format';
import { CustomerPicker } from '../pos/customer-picker';
import { PermissionGate } from '../permissions/permission-gate';
import { useCan } from '../permissions/permissions.api';
import { RemitoEstadoBadge } from '../presupuestos/documento-ui';
import { FacturarDialog } from './facturar-dialog';
import { RemitoDetailPage } from './remito-detail';
import { RemitoFormPage } from './remito-form';
import { useRemitos } from './remitos.api';

const PAGE = 100;

function RemitoList() {
  const { formatting } = useBusiness();
  const can = useCan();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const estado = (params.get('estado') ?? '') as RemitoEstado | '';
  const [cliente, setCliente] = useState<Customer | null>(null);
  const [texto, setTexto] = useState('');
  const clienteId = cliente?.id ?? params.get('cliente_id') ?? '';
  const q = useRemitos({ estado, cliente_id: clienteId, limit: PAGE, offset: 0 });
  const rows = q.data?.remitos ?? [];
  const [elegidos, setElegidos] = useState<Set<string>>(new Set());
  const [facturar, setFacturar] = useState<RemitoResumen[] | null>(null);
  const seleccion = rows.filter((r) => elegidos.has(r.id));
  const clientes = new Set(seleccion.map((r) => r.cliente_id));
  const puedeFacturar = can('remitos', 'editar') && can('ventas', 'editar');

  const toggle = (id: string) =>
    setElegidos((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const setEstado = (v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set('estado', v);
    else next.delete('estado');
    setParams(next, { replace: true });
  };

  return (
    <div>
      <PageHeader
        title="Remitos"
        description="Entregas a clientes: el stock sale al entregar y se facturan después, uno o varios del mismo cliente juntos."
        actions={
          can('remitos', 'editar') && <NewButton onClick={() => navigate('/remitos/nuevo')}>Nuevo remito</NewButton>
        }
      />
      <FilterBar label="Filtrar remitos" className="sm:grid-cols-[1fr_14rem]">
        <div>
          <CustomerPicker
            value={cliente}
            onChange={(c) => {
              setCliente(c);
              setElegidos(new Set());
            }}
            text={texto}
            onTextChange={setTexto}
            canView={can('clientes', 'ver')}
            canCreate={false}
            placeholder="Todos los clientes — buscar uno"
          />
        </div>
        <Field id="remito-estado" label="Estado">
          <Select id="remito-estado" value={estado} onChange={(e) => setEstado(e.target.value)}>
            <option value="">Todos</option>
            {REMITO_ESTADOS.map((e) => (
              <option key={e} value={e}>
                {REMITO_ESTADO_LABELS[e]}
              </option>
            ))}
          </Select>
        </Field>
      </FilterBar>
      {!cliente && params.get('cliente_id') && (
        <p className="mb-3 text-sm text-slate-600">
          Remitos de {rows[0]?.cliente_nombre ?? 'un cliente'}.{' '}
          <button
            type="button"
            className="text-blue-700 underline"
            onClick={() => {
              const next = new URLSearchParams(params);
              next.delete('cliente_id');
              setParams(next, { replace: true });
            }}
          >
            Ver los de todos
          </button>
        </p>
      )}
      {puedeFacturar && seleccion.length > 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          <span>
            {seleccion.length === 1 ? '1 remito elegido' : `${seleccion.length} remitos elegidos`} ·{' '}
            {formatMoney(seleccion.reduce((s, r) => s + Math.round(r.total * 100), 0) / 100, formatting)}
          </span>
          {clientes.size > 1 ? (
            <span className="text-red-700">Son de clientes distintos: facturá los de un cliente por vez.</span>
          ) : (
            <Button size="sm" onClick={() => setFacturar(seleccion)}>
              <Receipt className="h-4 w-4" aria-hidden /> Facturar remitos
            </Button>
          )}
        </div>
      )}
      {q.error && <ErrorNote>{errorMessage(q.error, 'No se pudieron cargar los remitos.')}</ErrorNote>}
      {q.isLoading ? (
        <Skeleton className="h-48" />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<Truck className="h-8 w-8" />}
          title={estado || clienteId ? 'No hay remitos con esos filtros' : 'Todavía no hay remitos'}
        >
          {!estado && !clienteId && 'Registrá una entrega con «Nuevo remito» o convertí un presupuesto aceptado.'}
        </EmptyState>
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
              <tr>
                {puedeFacturar && (
                  <th className="w-10 px-3 py-2">
                    <span className="sr-only">Elegir para facturar</span>
                  </th>
                )}
                <th className="px-4 py-2">Remito</th>
                <th className="hidden px-4 py-2 sm:table-cell">Cliente</th>
                <th className="hidden px-4 py-2 md:table-cell">Fecha</th>
                <th className="px-4 py-2">Estado</th>
                <th className="px-4 py-2 text-right">Importe</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((r) => (
                <tr key={r.id} className="hover:bg-slate-50">
                  {puedeFacturar && (
                    <td className="px-3 py-2">
                      {r.estado === 'pendiente' && (
                        <input
                          type="checkbox"
                          aria-label={`Elegir el remito #${r.numero} para facturar`}
                          checked={elegidos.has(r.id)}
                          onChange={() => toggle(r.id)}
                        />
                      )}
                    </td>
                  )}
                  <td className="px-4 py-2">
                    <Link
                      to={`/remitos/${r.id}`}
                      className="inline-flex items-center gap-1 whitespace-nowrap font-medium text-slate-900 hover:text-blue-700"
                    >
                      #{r.numero}
                      <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden />
                    </Link>
                    <span className="block text-xs text-slate-500 sm:hidden">{r.cliente_nombre}</span>
                  </td>
                  <td className="hidden px-4 py-2 text-slate-700 sm:table-cell">{r.cliente_nombre}</td>
                  <td className="hidden whitespace-nowrap px-4 py-2 text-slate-600 sm:table-cell">
                    {formatDate(todayIn(formatting.timezone, new Date(r.fecha)), formatting)}
                  </td>
                  <td className="px-4 py-2">
                    <RemitoEstadoBadge estado={r.estado} />
                    {r.venta_numero && <span className="ml-2 text-xs text-slate-500">Venta #{r.venta_numero}</span>}
                  </td>
                  <td className="hidden whitespace-nowrap px-4 py-2 text-right tabular-nums md:table-cell">
                    {formatMoney(r.total, formatting)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {facturar && (
        <FacturarDialog
          remitos={facturar}
          onClose={() => {
            setFacturar(null);
            setElegidos(new Set());
          }}
        />
      )}
    </div>
  );
}

export default function RemitosPage() {
  return (
    <PermissionGate modulo="remitos">
      <Routes>
        <Route index element={<RemitoList />} />
        <Route
          path="nuevo"
          element={
            <PermissionGate modulo="remitos" accion="editar">
              <RemitoFormPage />
            </PermissionGate>
          }
        />
        <Route path=":id" element={<RemitoDetailPage />} />
        <Route path="*" element={<Navigate to="/remitos" replace />} />
      </Routes>
    </PermissionGate>
  );
}
