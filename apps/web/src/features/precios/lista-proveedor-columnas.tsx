import type { ColumnaArchivo, ListaProveedorClave } from '@mostrador/shared';
import { IntegerField } from '@/components/ui/input';
import { ColumnMappingTable } from '@/features/imports/column-mapping';

/** The fields a supplier's list uses; the others are read as "No usar". */
const campos = (clave: ListaProveedorClave) => [
  { value: 'codigo', label: clave === 'codigo_proveedor' ? 'Código del proveedor' : 'Código interno' },
  { value: 'codigo_barras', label: 'Código de barras' },
  { value: 'precio_compra', label: 'Costo' },
  { value: 'precio_venta', label: 'Precio de venta' },
];

/** The mapping the server read, as the table shows it (fields this list does not use: ignored). */
export function mappingOf(columnas: ColumnaArchivo[], clave: ListaProveedorClave): Record<string, string> {
  const usable = new Set(campos(clave).map((c) => c.value));
  return Object.fromEntries(columnas.map((c) => [c.columna, c.campo && usable.has(c.campo) ? c.campo : '']));
}

/**
 * The header row (empty: found on its own under the title) and each column with its first
 * values, to say which one holds the code, the cost or the price.
 */
export function ListaProveedorColumnas({
  clave,
  columnas,
  filaEncontrada,
  fila,
  onFila,
  mapping,
  onMapping,
}: {
  clave: ListaProveedorClave;
  columnas: ColumnaArchivo[];
  filaEncontrada: number | null;
  fila: string;
  onFila: (v: string) => void;
  mapping: Record<string, string>;
  onMapping: (m: Record<string, string>) => void;
}) {
  const used = Object.values(mapping).filter(Boolean);
  const duplicated = used.find((f, i) => used.indexOf(f) !== i);
  return (
    <section className="space-y-3 rounded-lg border border-slate-200 p-3" aria-labelledby="prov-columnas-titulo">
      <h3 id="prov-columnas-titulo" className="text-sm font-semibold text-slate-900">
        Columnas del archivo
      </h3>
      <div className="max-w-xs">
        <IntegerField
          id="prov-fila"
          label="Fila de títulos"
          placeholder={filaEncontrada ? String(filaEncontrada) : 'Automática'}
          hint={
            fila.trim()
              ? 'Los títulos se leen de esta fila; vaciala para buscarla sola.'
              : filaEncontrada
                ? `Encontrada sola: fila ${filaEncontrada}.`
                : 'Vacía: se busca sola debajo del título.'
          }
          value={fila}
          onChange={(e) => onFila(e.target.value)}
        />
      </div>
      <ColumnMappingTable
        idPrefix="prov-map"
        columns={columnas}
        value={mapping}
        onChange={onMapping}
        options={campos(clave)}
        readAs="Se usa como"
        ignoreLabel="No usar"
      />
      {duplicated && (
        <p role="alert" className="text-xs text-red-600">
          Hay dos columnas usadas como {campos(clave).find((c) => c.value === duplicated)?.label}: dejá una sola.
        </p>
      )}
    </section>
  );
}

export const hasDuplicatedColumn = (mapping: Record<string, string>) => {
  const used = Object.values(mapping).filter(Boolean);
  return used.some((f, i) => used.indexOf(f) !== i);
};
