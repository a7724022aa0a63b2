import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FORMATTING } from '@/lib/format';
import { DataTable } from './data-table';

vi.mock('@/app/business-context', () => ({ useBusiness: () => ({ formatting: DEFAULT_FORMATTING }) }));

interface Row {
  id: string;
  nombre: string;
  saldo: number;
  email: string;
}

const rows: Row[] = [
  { id: '1', nombre: 'Marta', saldo: 200, email: 'marta@ejemplo.com' },
  { id: '2', nombre: 'Ana', saldo: 50, email: 'ana@ejemplo.com' },
  { id: '3', nombre: 'Zoe', saldo: 900, email: 'zoe@ejemplo.com' },
];

const columns: ColumnDef<Row, unknown>[] = [
  { id: 'nombre', accessorKey: 'nombre', header: 'Nombre', meta: { label: 'Nombre', primary: true } },
  { id: 'saldo', accessorKey: 'saldo', header: 'Saldo', meta: { label: 'Saldo', align: 'right' } },
  {
    id: 'email',
    accessorKey: 'email',
    header: 'E-mail',
    enableSorting: false,
    meta: { label: 'E-mail', defaultHidden: true },
  },
  {
    id: 'acciones',
    header: 'Acciones',
    enableSorting: false,
    enableHiding: false,
    cell: ({ row }) => <button type="button">Editar {row.original.nombre}</button>,
    meta: { actions: true },
  },
];

const names = () =>
  within(screen.getByRole('table', { name: 'Personas' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0].textContent);

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('DataTable', () => {
  it('shows the rows, sorts them in the browser by header, and says the order to screen readers', () => {
    render(<DataTable screen="t1" label="Personas" columns={columns} rows={rows} rowId={(r) => r.id} empty="Nada" />);
    expect(names()).toEqual(['Marta', 'Ana', 'Zoe']);
    const header = screen.getByRole('columnheader', { name: /Nombre/ });
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header).getByRole('button', { name: /Nombre/ }));
    expect(names()).toEqual(['Ana', 'Marta', 'Zoe']);
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header).getByRole('button', { name: /Nombre/ }));
    expect(names()).toEqual(['Zoe', 'Marta', 'Ana']);
    expect(header.getAttribute('aria-sort')).toBe('descending');
    // Numbers sort as numbers, from the phone's select too.
    fireEvent.change(screen.getByLabelText('Ordenar por'), { target: { value: 'saldo:asc' } });
    expect(names()).toEqual(['Ana', 'Marta', 'Zoe']);
    expect(screen.getByText('3 resultados')).toBeTruthy();
  });

  it('leaves sorting to the server when told so: it only reports the column and direction', () => {
    const seen: SortingState[] = [];
    function Server() {
      const [value, setValue] = useState<SortingState>([]);
      return (
        <DataTable
          screen="t2"
          label="Personas"
          columns={columns}
          rows={rows}
          rowId={(r) => r.id}
          empty="Nada"
          sorting={{
            value,
            onChange: (s) => {
              seen.push(s);
              setValue(s);
            },
          }}
          pagination={{ page: 0, pageSize: 3, total: 7, onPage: () => undefined, label: 'personas', one: 'persona' }}
        />
      );
    }
    render(<Server />);
    fireEvent.click(screen.getByRole('button', { name: /Saldo/ }));
    expect(seen.at(-1)).toEqual([{ id: 'saldo', desc: false }]);
    // The rows stay in the server's order.
    expect(names()).toEqual(['Marta', 'Ana', 'Zoe']);
    expect(screen.getByRole('navigation', { name: 'Paginación' }).textContent).toContain('1–3 de 7 personas');
  });

  it('pages the rows it has, pageSize at a time', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ ...rows[0], id: String(i), nombre: `P${i}` }));
    render(
      <DataTable
        screen="t3"
        label="Personas"
        columns={columns}
        rows={many}
        rowId={(r) => r.id}
        pageSize={3}
        empty=""
      />,
    );
    expect(names()).toEqual(['P0', 'P1', 'P2']);
    fireEvent.click(screen.getByRole('button', { name: /Siguiente/ }));
    expect(names()).toEqual(['P3', 'P4', 'P5']);
  });

  it('hides the columns marked so until shown, and remembers the choice per screen', () => {
    localStorage.setItem('mostrador.columnas.t4', JSON.stringify({ email: true, saldo: false }));
    render(<DataTable screen="t4" label="Personas" columns={columns} rows={rows} rowId={(r) => r.id} empty="" />);
    const heads = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(heads).toEqual(['Nombre', 'E-mail', 'Acciones']);
    cleanup();
    render(<DataTable screen="t5" label="Personas" columns={columns} rows={rows} rowId={(r) => r.id} empty="" />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Nombre', 'Saldo', 'Acciones']);
  });

  it('shows the loading, error and empty states instead of the table', () => {
    const { rerender } = render(
      <DataTable
        screen="t6"
        label="Personas"
        columns={columns}
        rows={undefined}
        rowId={(r) => r.id}
        empty=""
        loading
      />,
    );
    expect(screen.getByLabelText('Cargando')).toBeTruthy();
    rerender(
      <DataTable
        screen="t6"
        label="Personas"
        columns={columns}
        rows={undefined}
        rowId={(r) => r.id}
        empty=""
        error="No se pudieron cargar."
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('No se pudieron cargar.');
    rerender(
      <DataTable
        screen="t6"
        label="Personas"
        columns={columns}
        rows={[]}
        rowId={(r) => r.id}
        empty="Todavía no hay nadie"
      />,
    );
    expect(screen.getByText('Todavía no hay nadie')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('labels each cell with its column, for the phone cards', () => {
    render(<DataTable screen="t7" label="Personas" columns={columns} rows={rows} rowId={(r) => r.id} empty="" />);
    const first = screen.getAllByRole('row')[1];
    const cells = within(first).getAllByRole('cell');
    expect(cells[0].hasAttribute('data-label')).toBe(false);
    expect(cells[1].getAttribute('data-label')).toBe('Saldo');
    expect(within(first).getByRole('button', { name: 'Editar Marta' })).toBeTruthy();
  });

  it("opens a row's detail under it across the table, gives rows their own class, and names the phone sort select by its label alone", () => {
    render(
      <DataTable
        screen="t-detail"
        label="Personas"
        columns={columns}
        rows={rows}
        rowId={(r) => r.id}
        empty="Nada"
        rowClassName={(r) => r.saldo > 500 && 'fila-alta'}
        detail={(r) => (r.id === '2' ? <p>Detalle de {r.nombre}</p> : null)}
      />,
    );
    const table = screen.getByRole('table', { name: 'Personas' });
    const bodyRows = within(table).getAllByRole('row').slice(1);
    // Marta, Ana, Ana's detail, Zoe.
    expect(bodyRows).toHaveLength(4);
    const detail = within(bodyRows[2]).getByRole('cell');
    expect(detail.textContent).toBe('Detalle de Ana');
    // Nombre, Saldo and the actions: the hidden e-mail column takes no place.
    expect(detail.getAttribute('colspan')).toBe('3');
    expect(bodyRows[3].className).toContain('fila-alta');
    expect(bodyRows[0].className).not.toContain('fila-alta');
    expect(screen.getByRole('combobox', { name: 'Ordenar por' })).toBeTruthy();
  });
  it('keeps what a cell holds (an open row menu) when the screen renders again with rebuilt columns', () => {
    function Toggle({ nombre }: { nombre: string }) {
      const [open, setOpen] = useState(false);
      return (
        <button type="button" aria-expanded={open} onClick={() => setOpen(true)}>
          Acciones de {nombre}
        </button>
      );
    }
    function Screen() {
      const [tick, setTick] = useState(0);
      // A new columns array and new cell functions on every render, as the screens build them.
      const cols: ColumnDef<Row, unknown>[] = [
        { id: 'nombre', accessorKey: 'nombre', header: 'Nombre', meta: { label: 'Nombre', primary: true } },
        { id: 'menu', header: 'Acciones', cell: ({ row }) => <Toggle nombre={row.original.nombre} /> },
      ];
      return (
        <>
          <button type="button" onClick={() => setTick(tick + 1)}>
            Otra vez
          </button>
          <DataTable screen="t-remount" label="Personas" columns={cols} rows={rows} rowId={(r) => r.id} empty="Nada" />
        </>
      );
    }
    render(<Screen />);
    fireEvent.click(screen.getByRole('button', { name: 'Acciones de Ana' }));
    expect(screen.getByRole('button', { name: 'Acciones de Ana' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Otra vez' }));
    expect(screen.getByRole('button', { name: 'Acciones de Ana' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Acciones de Zoe' }).getAttribute('aria-expanded')).toBe('false');
  });
});
