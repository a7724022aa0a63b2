import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Deposito, Transferencia } from '@mostrador/shared/depositos';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { SearchBox } from '@/features/products/inventory-ui';
import { useProducts } from '@/features/products/products.api';
import { errorMessage } from '@/lib/api';
import { decimalText, readDecimal } from '@/lib/decimal-input';
import { formatNumber } from '@/lib/format';
import { useDebounced } from '@/lib/use-debounced';
import { useCreateTransferencia, useRecibirTransferencia } from './depositos.api';

interface Line {
  producto_id: string;
  nombre: string;
  cantidad: string;
}

/** Reads the typed quantities: the first error by line, or the numbers. */
function quantities(texts: string[], allowZero: boolean): { error: string | null; values: number[] } {
  const values: number[] = [];
  for (const [i, text] of texts.entries()) {
    const r = readDecimal(text, 'quantity');
    if (!r.ok) return { error: `Línea ${i + 1}: ${r.message}`, values };
    if (r.value === null || r.value < 0 || (!allowZero && r.value === 0)) {
      return { error: `Línea ${i + 1}: ingresá una cantidad ${allowZero ? 'de 0 o más' : 'mayor a 0'}.`, values };
    }
    values.push(r.value);
  }
  return { error: null, values };
}

/** "Nueva transferencia": origin, destination, products and quantities; the stock leaves the origin when sent. */
export function NuevaTransferenciaForm({
  depositos,
  onDone,
}: {
  depositos: Deposito[];
  onDone: (t?: Transferencia) => void;
}) {
  const create = useCreateTransferencia();
  const [origen, setOrigen] = useState(depositos[0]?.id ?? '');
  const [destino, setDestino] = useState(depositos[1]?.id ?? '');
  const [observaciones, setObservaciones] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [q, setQ] = useState('');
  const term = useDebounced(q.trim());
  const found = useProducts({ q: term || undefined, activo: 'true', limit: 8, offset: 0 });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = (p: { id: string; nombre: string }) => {
    if (!lines.some((l) => l.producto_id === p.id))
      setLines([...lines, { producto_id: p.id, nombre: p.nombre, cantidad: '1' }]);
    setQ('');
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (origen === destino) return setError('Elegí un depósito de destino distinto del de origen.');
    if (!lines.length) return setError('Agregá al menos un producto.');
    const read = quantities(
      lines.map((l) => l.cantidad),
      false,
    );
    if (read.error) return setError(read.error);
    setBusy(true);
    setError(null);
    try {
      const t = await create.mutateAsync({
        origen_id: origen,
        destino_id: destino,
        observaciones: observaciones.trim() || null,
        items: lines.map((l, i) => ({ producto_id: l.producto_id, cantidad: read.values[i] })),
      });
      onDone(t);
    } catch (err) {
      setError(errorMessage(err, 'No se pudo enviar la transferencia.'));
    } finally {
      setBusy(false);
    }
  };
  const options = depositos.map((d) => (
    <option key={d.id} value={d.id}>
      {d.nombre} ({d.sucursal_nombre})
    </option>
  ));
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="tr-origen" label="Desde" required>
          <Select id="tr-origen" value={origen} onChange={(e) => setOrigen(e.target.value)}>
            {options}
          </Select>
        </Field>
        <Field id="tr-destino" label="Hacia" required>
          <Select id="tr-destino" value={destino} onChange={(e) => setDestino(e.target.value)}>
            {options}
          </Select>
        </Field>
      </div>
      <div>
        <SearchBox
          id="tr-buscar"
          label="Buscar un producto"
          value={q}
          onChange={setQ}
          placeholder="Buscá por nombre o código…"
        />
        {term && (
          <ul
            className="mt-1 max-h-48 overflow-y-auto rounded-lg border border-slate-200"
            aria-label="Productos encontrados"
          >
            {(found.data?.rows ?? []).length === 0 ? (
              <li className="p-2 text-sm text-slate-500">
                {found.isLoading ? 'Buscando…' : 'Ningún producto coincide.'}
              </li>
            ) : (
              (found.data?.rows ?? []).map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    className="flex w-full justify-between gap-2 px-3 py-2 text-left text-sm hover:bg-slate-50 focus:bg-slate-50 focus:outline-none"
                    onClick={() => add(p)}
                  >
                    <span>{p.nombre}</span>
                    <span className="text-slate-500">Stock total: {formatNumber(p.stock_actual)}</span>
                  </button>
                </li>
              ))
            )}
          </ul>
        )}
      </div>
      {lines.length > 0 && (
        <ul
          className="divide-y divide-slate-100 rounded-lg border border-slate-200"
          aria-label="Productos a transferir"
        >
          {lines.map((l, i) => (
            <li key={l.producto_id} className="flex items-center gap-2 px-3 py-2">
              <label htmlFor={`tr-cant-${i}`} className="flex-1 text-sm text-slate-800">
                {l.nombre}
              </label>
              <div className="w-24 shrink-0">
                <Input
                  id={`tr-cant-${i}`}
                  aria-label={`Cantidad de ${l.nombre}`}
                  className="text-right"
                  inputMode="decimal"
                  autoComplete="off"
                  value={l.cantidad}
                  onChange={(e) => setLines(lines.map((x, j) => (j === i ? { ...x, cantidad: e.target.value } : x)))}
                />
              </div>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Quitar ${l.nombre}`}
                onClick={() => setLines(lines.filter((_, j) => j !== i))}
              >
                <Trash2 className="h-4 w-4 text-red-600" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Field id="tr-obs" label="Observaciones">
        <Textarea
          id="tr-obs"
          rows={2}
          maxLength={500}
          value={observaciones}
          onChange={(e) => setObservaciones(e.target.value)}
        />
      </Field>
      <FormActions error={error} busy={busy} onCancel={() => onDone()} submitLabel="Enviar transferencia" />
    </form>
  );
}

/** "Recibir": what arrived of each line (all of it by default); a difference stays recorded. */
export function RecibirForm({ t, onDone }: { t: Transferencia; onDone: (t?: Transferencia) => void }) {
  const recibir = useRecibirTransferencia();
  const [texts, setTexts] = useState(t.items.map((i) => decimalText(i.cantidad)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const read = quantities(texts, true);
    if (read.error) return setError(read.error);
    const over = t.items.findIndex((i, n) => read.values[n] > i.cantidad);
    if (over >= 0) return setError(`${t.items[over].nombre}: no podés recibir más de lo que se envió.`);
    setBusy(true);
    setError(null);
    try {
      onDone(
        await recibir.mutateAsync({
          id: t.id,
          items: t.items.map((i, n) => ({ producto_id: i.producto_id, cantidad_recibida: read.values[n] })),
        }),
      );
    } catch (err) {
      setError(errorMessage(err, 'No se pudo recibir la transferencia.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-slate-600">
        De {t.origen_nombre} a {t.destino_nombre}. Corregí lo que no llegó: la diferencia queda registrada.
      </p>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Productos recibidos">
        {t.items.map((i, n) => (
          <li key={i.producto_id} className="flex items-center gap-2 px-3 py-2">
            <label htmlFor={`rec-${n}`} className="flex-1 text-sm text-slate-800">
              {i.nombre}
              <span className="block text-xs text-slate-500">Enviado: {formatNumber(i.cantidad)}</span>
            </label>
            <div className="w-24 shrink-0">
              <Input
                id={`rec-${n}`}
                aria-label={`Cantidad recibida de ${i.nombre}`}
                className="text-right"
                inputMode="decimal"
                autoComplete="off"
                value={texts[n]}
                onChange={(e) => setTexts(texts.map((x, j) => (j === n ? e.target.value : x)))}
              />
            </div>
          </li>
        ))}
      </ul>
      <FormActions error={error} busy={busy} onCancel={() => onDone()} submitLabel="Confirmar recepción" />
    </form>
  );
}
