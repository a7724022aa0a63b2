import type { ColumnDef } from '@tanstack/react-table';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { TURNO_STATE_LABELS, type TurnoResumen } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/ui/input';
import { Badge, EmptyState, ErrorNote, FilterBar } from '@/components/ui/misc';
import { useDownload } from '@/lib/download';
import { formatDateTime, formatMoney, type Formatting } from '@/lib/format';
import { useTurnos } from './caja.api';

const PAGE_SIZE = 20;

/**
 * The turnos table's columns, newest first: the API pages the list and sorts it by nothing else,
 * so no header sorts.
 */
function turnoColumns(formatting: Formatting, onShow: (id: string) => void): ColumnDef<TurnoResumen, unknown>[] {
  const money = (n: number | null) => (n === null ? '—' : formatMoney(n, formatting));
  const when = (at: string | null, by: { nombre: string } | null) =>
    at ? `${formatDateTime(at, formatting)} · ${by?.nombre ?? ''}` : '—';
  const columns: ColumnDef<TurnoResumen, unknown>[] = [
    {
      id: 'numero',
      header: 'Turno',
      meta: { label: 'Turno', primary: true },
      cell: ({ row: { original: t } }) => (
        <button
          type="button"
          className="font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
          onClick={() => onShow(t.id)}
        >
          #{t.numero}
        </button>
      ),
    },
    { id: 'caja', header: 'Caja', meta: { label: 'Caja' }, cell: ({ row }) => row.original.caja_nombre },
    {
      id: 'apertura',
      header: 'Apertura',
      meta: { label: 'Apertura', className: 'text-slate-600' },
      cell: ({ row: { original: t } }) => when(t.abierto_en, t.abierto_por),
    },
    {
      id: 'cierre',
      header: 'Cierre',
      meta: { label: 'Cierre', className: 'text-slate-600' },
      cell: ({ row: { original: t } }) => when(t.cerrado_en, t.cerrado_por),
    },
    {
      id: 'ventas',
      header: 'Ventas',
      meta: { label: 'Ventas', align: 'right', className: 'whitespace-nowrap' },
      cell: ({ row: { original: t } }) =>
        t.ventas_total === null ? String(t.ventas_cantidad) : `${t.ventas_cantidad} · ${money(t.ventas_total)}`,
    },
    {
      id: 'diferencia',
      header: 'Diferencia',
      meta: { label: 'Diferencia', align: 'right', className: 'whitespace-nowrap' },
      cell: ({ row: { original: t } }) => (
        <span className={t.diferencia ? 'font-semibold text-red-600' : undefined}>{money(t.diferencia)}</span>
      ),
    },
    {
      id: 'estado',
      header: 'Estado',
      meta: { label: 'Estado' },
      cell: ({ row: { original: t } }) => (
        <Badge color={t.estado === 'abierto' ? 'green' : 'gray'}>{TURNO_STATE_LABELS[t.estado]}</Badge>
      ),
    },
  ];
  return columns.map((c) => ({ ...c, enableSorting: false }));
}

/** The caja's turnos, newest first, filtered by estado and exported to Excel. */
export function TurnosList({ onShow }: { onShow: (id: string) => void }) {
  const { businessId, formatting } = useBusiness();
  const [estado, setEstado] = useState('');
  const [page, setPage] = useState(0);
  const list = useTurnos({ estado, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const download = useDownload('No se pudo exportar.');
  return (
    <section className="mt-8 space-y-3" aria-labelledby="turnos-title">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id="turnos-title" className="text-lg font-semibold text-slate-900">
          Turnos
        </h2>
        <Button
          variant="secondary"
          disabled={download.busy}
          onClick={() => download.run(`/businesses/${businessId}/turnos/exportar`, { estado })}
        >
          <Download className="h-4 w-4" /> Exportar
        </Button>
      </div>
      <FilterBar label="Filtros de turnos" className="sm:grid-cols-3">
        <FilterSelect
          id="turnos-estado"
          label="Estado"
          value={estado}
          onChange={(e) => {
            setEstado(e.target.value);
            setPage(0);
          }}
        >
          <option value="">Todos</option>
          <option value="abierto">Abiertos</option>
          <option value="cerrado">Cerrados</option>
        </FilterSelect>
      </FilterBar>
      {download.error && <ErrorNote>{download.error}</ErrorNote>}
      <DataTable
        screen="turnos"
        label="Turnos"
        columns={turnoColumns(formatting, onShow)}
        query={list}
        loadError="No se pudieron cargar los turnos."
        rowId={(t) => t.id}
        pagination={{
          page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onPage: setPage,
          label: 'turnos',
          one: 'turno',
        }}
        empty={
          estado ? (
            <EmptyState title={estado === 'abierto' ? 'No hay turnos abiertos' : 'No hay turnos cerrados'} />
          ) : (
            <EmptyState title="Todavía no hay turnos">Abrí un turno en una caja para empezar a vender.</EmptyState>
          )
        }
      />
    </section>
  );
}
