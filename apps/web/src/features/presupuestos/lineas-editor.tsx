import { Trash2 } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { splitQuantity } from '@mostrador/shared/scale';
import { useBusiness } from '@/app/business-context';
import { Input } from '@/components/ui/input';
import { useDebounced } from '@/lib/use-debounced';
import { parseDecimal, quantityText } from '@/lib/decimal';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/cn';
import type { CatalogItem } from '../pos/cart';
import { moveActive } from '../pos/listbox';
import { searchCatalog, useCatalogSearch } from '../pos/pos.api';
import { resolveScan } from '../pos/scan';
import { precioEnLista } from '../precios/pos-lista';

/*
 * The lines of a presupuesto or a remito: the POS's search (type a name or a code, scan a barcode:
 * Enter adds the exact code, the highlighted result or the best match; "3*código" adds three) and
 * each line's quantity and discount. Prices shown are the customer's list's, as the server prices
 * them when it saves.
 */

export interface LineaDraft {
  key: string;
  item: CatalogItem;
  /** The quantity as typed ("1,5"). */
  cantidad: string;
  /** The line's discount in pesos as typed (empty: none). */
  descuento: string;
}

/** Thousandths of a typed quantity (0 when unreadable). */
export const milesimas = (l: LineaDraft) => parseDecimal(l.cantidad, 3) ?? 0;
/** Cents of a typed line discount (0 when empty or unreadable). */
export const centavosDescuento = (l: LineaDraft) => parseDecimal(l.descuento, 2) ?? 0;

/** Cents of a line at the list's price: cantidad × precio, half up, less its discount. */
export function importeLinea(l: LineaDraft, listaId: string | null): number {
  const q = milesimas(l);
  const precio = precioEnLista(l.item, listaId, q);
  return Math.max(0, Math.round((q * precio) / 1000) - centavosDescuento(l));
}

let next = 0;

export function LineasEditor({
  lineas,
  onChange,
  listaId,
  error,
}: {
  lineas: LineaDraft[];
  onChange: (l: LineaDraft[]) => void;
  listaId: string | null;
  error?: string;
}) {
  const { businessId, formatting } = useBusiness();
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [aviso, setAviso] = useState<string | null>(null);
  const debounced = useDebounced(q, 150);
  // "3*código": the search is for what follows the quantity, as at the counter.
  const search = useCatalogSearch(splitQuantity(debounced).termino);
  const options = open && q.trim() ? (search.data ?? []) : [];
  const inputRef = useRef<HTMLInputElement>(null);
  /** The list closes a moment after the search loses focus (a click on an option lands first). */
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const keepOpen = () => {
    if (closing.current) clearTimeout(closing.current);
    closing.current = null;
    setOpen(true);
  };

  const add = (item: CatalogItem, cantidad: number) => {
    const same = lineas.find((l) => l.item.id === item.id && !l.descuento);
    if (same) {
      onChange(lineas.map((l) => (l === same ? { ...l, cantidad: quantityText(milesimas(l) + cantidad) } : l)));
    } else {
      onChange([...lineas, { key: `l${next++}`, item, cantidad: quantityText(cantidad), descuento: '' }]);
    }
    setQ('');
    setActive(-1);
    setOpen(false);
    setAviso(null);
    inputRef.current?.focus();
  };

  async function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key) && options.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => moveActive(a, options.length, e.key));
      return;
    }
    if (e.key === 'Escape') {
      setOpen(false);
      return;
    }
    if (e.key !== 'Enter' || !q.trim()) return;
    e.preventDefault();
    const r = await resolveScan(q, {
      balanza: null,
      shown: options,
      chosen: active >= 0 ? options[active] : undefined,
      lookup: (t) => searchCatalog(businessId ?? '', t),
    });
    if ('error' in r) setAviso(r.error);
    else add(r.item, r.cantidad);
  }

  const set = (key: string, patch: Partial<LineaDraft>) =>
    onChange(lineas.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  return (
    <div className="space-y-3">
      <div className="relative">
        <label htmlFor="doc-buscar" className="block text-sm font-medium text-slate-700">
          Agregar producto o servicio
        </label>
        <Input
          id="doc-buscar"
          ref={inputRef}
          role="combobox"
          aria-expanded={options.length > 0}
          aria-controls="doc-buscar-lista"
          aria-activedescendant={active >= 0 ? `doc-opcion-${active}` : undefined}
          autoComplete="off"
          placeholder="Nombre, código o escaneá el código de barras"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            keepOpen();
            setActive(-1);
            setAviso(null);
          }}
          onKeyDown={(e) => void onKeyDown(e)}
          onFocus={keepOpen}
          onBlur={() => {
            closing.current = setTimeout(() => setOpen(false), 150);
          }}
          className="mt-1"
        />
        {options.length > 0 && (
          <ul
            id="doc-buscar-lista"
            role="listbox"
            className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
          >
            {options.map((o, i) => (
              <li
                key={`${o.tipo}-${o.id}`}
                id={`doc-opcion-${i}`}
                role="option"
                aria-selected={i === active}
                className={cn(
                  'flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm',
                  i === active ? 'bg-blue-50 text-blue-900' : 'hover:bg-slate-50',
                )}
                onMouseDown={(e) => {
                  e.preventDefault();
                  add(o, 1000);
                }}
              >
                <span className="min-w-0 truncate">
                  {o.nombre}
                  {o.codigo && <span className="ml-2 text-xs text-slate-500">{o.codigo}</span>}
                </span>
                <span className="shrink-0 tabular-nums text-slate-600">
                  {formatMoney(precioEnLista(o, listaId, 1000) / 100, formatting)}
                </span>
              </li>
            ))}
          </ul>
        )}
        {aviso && (
          <p role="alert" className="mt-1 text-xs text-red-600">
            {aviso}
          </p>
        )}
      </div>

      {lineas.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">
          Todavía no agregaste nada: buscá un producto o escaneá su código.
        </p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="px-3 py-2">Producto</th>
                <th className="w-20 px-3 py-2 sm:w-24">Cantidad</th>
                <th className="hidden px-3 py-2 text-right sm:table-cell">Precio</th>
                <th className="w-24 px-3 py-2 sm:w-28">Desc. $</th>
                <th className="px-3 py-2 text-right">Importe</th>
                <th className="w-10 px-2 py-2">
                  <span className="sr-only">Quitar</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {lineas.map((l) => (
                <tr key={l.key}>
                  <td className="px-3 py-2 text-slate-900">{l.item.nombre}</td>
                  <td className="px-3 py-2">
                    <Input
                      aria-label={`Cantidad de ${l.item.nombre}`}
                      inputMode="decimal"
                      value={l.cantidad}
                      aria-invalid={milesimas(l) <= 0}
                      onChange={(e) => set(l.key, { cantidad: e.target.value })}
                    />
                  </td>
                  <td className="hidden px-3 py-2 text-right tabular-nums text-slate-600 sm:table-cell">
                    {formatMoney(precioEnLista(l.item, listaId, milesimas(l)) / 100, formatting)}
                  </td>
                  <td className="px-3 py-2">
                    <Input
                      aria-label={`Descuento de ${l.item.nombre}`}
                      inputMode="decimal"
                      placeholder="0"
                      value={l.descuento}
                      onChange={(e) => set(l.key, { descuento: e.target.value })}
                    />
                  </td>
                  <td className="px-3 py-2 text-right font-medium tabular-nums text-slate-900">
                    {formatMoney(importeLinea(l, listaId) / 100, formatting)}
                  </td>
                  <td className="px-2 py-2">
                    <button
                      type="button"
                      className="rounded p-1 text-slate-400 hover:bg-red-50 hover:text-red-600"
                      aria-label={`Quitar ${l.item.nombre}`}
                      onClick={() => onChange(lineas.filter((x) => x.key !== l.key))}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

/** The lines as the API takes them (quantities and discounts as numbers). */
export const lineasBody = (lineas: LineaDraft[]) =>
  lineas.map((l) => ({
    id: l.item.id,
    tipo: l.item.tipo,
    cantidad: milesimas(l) / 1000,
    ...(centavosDescuento(l) ? { descuento: centavosDescuento(l) / 100 } : {}),
  }));
