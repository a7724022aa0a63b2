import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Barcode, Download, Tags } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ETIQUETA_PLANTILLA_LABELS, ETIQUETA_PLANTILLAS, type EtiquetaPlantilla } from '@mostrador/shared/etiquetas';
import { PRECIO_ORIGEN_LABELS, PRECIO_ORIGENES, type PrecioOrigen } from '@mostrador/shared/precios';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { Card, ErrorNote, PageHeader } from '@/components/ui/misc';
import { useCategories } from '@/features/categories/categories.api';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { useProducts } from '@/features/products/products.api';
import { ImprimirEtiquetas } from './imprimir-etiquetas';
import { api, errorMessage } from '@/lib/api';
import { useDownload } from '@/lib/download';
import { formatMoney } from '@/lib/format';

/*
 * Labels (issue 35): góndola labels (price, price per unit of measure, price without national
 * taxes) or barcode labels, as A4 PDF sheets, for what changed price, a category or a selection.
 * `?origen=lista_proveedor&referencia_id=…` comes from "Etiquetas de lo que cambió" after a
 * supplier list or a cotización.
 */

type Fuente = 'cambios' | 'categoria' | 'seleccion';
const haceDias = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export default function EtiquetasPage() {
  return (
    <PermissionGate modulo="productos">
      <Etiquetas />
    </PermissionGate>
  );
}

function Etiquetas() {
  const { businessId, formatting } = useBusiness();
  const can = useCan();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const referencia = params.get('referencia_id');
  const [fuente, setFuente] = useState<Fuente>('cambios');
  const [plantilla, setPlantilla] = useState<EtiquetaPlantilla>('gondola');
  const [copias, setCopias] = useState('1');
  const [origen, setOrigen] = useState<PrecioOrigen | ''>((params.get('origen') as PrecioOrigen | null) ?? '');
  const [desde, setDesde] = useState(referencia ? '' : haceDias(7));
  const [categoria, setCategoria] = useState('');
  const [q, setQ] = useState('');
  const [elegidos, setElegidos] = useState<Map<string, { nombre: string; codigo_barras: string | null }>>(new Map());
  const categorias = useCategories();
  const productos = useProducts({ q, activo: 'true', limit: 20, offset: 0 });
  const descarga = useDownload('No se pudieron generar las etiquetas.');
  const sinCodigo = [...elegidos].filter(([, p]) => !p.codigo_barras);
  const asignar = useMutation({
    mutationFn: () =>
      api.post<{ asignados: { producto_id: string; codigo_barras: string }[] }>(
        `/businesses/${businessId}/etiquetas/codigos-internos`,
        { producto_ids: sinCodigo.map(([id]) => id) },
      ),
    onSuccess: (r) => {
      setElegidos((m) => {
        const next = new Map(m);
        for (const a of r.asignados)
          next.set(a.producto_id, { ...next.get(a.producto_id)!, codigo_barras: a.codigo_barras });
        return next;
      });
      void qc.invalidateQueries({ queryKey: ['inventory', businessId] });
    },
  });

  const query = useMemo(() => {
    const base = { plantilla, copias: Number(copias) > 1 ? Number(copias) : undefined };
    if (fuente === 'categoria') return { ...base, categoria_id: categoria || undefined };
    if (fuente === 'seleccion') return { ...base, productos: [...elegidos.keys()].join(',') || undefined };
    return {
      ...base,
      origen: origen || undefined,
      referencia_id: referencia ?? undefined,
      desde: desde || undefined,
    };
  }, [plantilla, copias, fuente, categoria, elegidos, origen, referencia, desde]);

  const listo =
    fuente === 'categoria'
      ? Boolean(categoria)
      : fuente === 'seleccion'
        ? elegidos.size > 0
        : Boolean(origen || desde || referencia);

  return (
    <div className="space-y-4">
      <PageHeader
        title="Etiquetas"
        description="Etiquetas de góndola con el precio por unidad de medida, o de código de barras, en hojas A4 para imprimir."
      />
      <Card className="space-y-4 p-4">
        <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
          <Field id="etq-plantilla" label="Plantilla">
            <Select
              id="etq-plantilla"
              value={plantilla}
              onChange={(e) => setPlantilla(e.target.value as EtiquetaPlantilla)}
            >
              {ETIQUETA_PLANTILLAS.map((p) => (
                <option key={p} value={p}>
                  {ETIQUETA_PLANTILLA_LABELS[p]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="etq-copias" label="Copias">
            <Input
              id="etq-copias"
              inputMode="numeric"
              value={copias}
              onChange={(e) => setCopias(e.target.value.replace(/\D/g, '').slice(0, 2))}
            />
          </Field>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">¿Qué productos?</legend>
          <div className="flex flex-wrap gap-4 text-sm" role="radiogroup">
            {(
              [
                ['cambios', 'Lo que cambió de precio'],
                ['categoria', 'Una categoría'],
                ['seleccion', 'Elegir productos'],
              ] as const
            ).map(([v, label]) => (
              <label key={v} className="flex items-center gap-2">
                <input type="radio" name="etq-fuente" checked={fuente === v} onChange={() => setFuente(v)} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {fuente === 'cambios' && (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id="etq-origen" label="Cambiados por">
              <Select id="etq-origen" value={origen} onChange={(e) => setOrigen(e.target.value as PrecioOrigen | '')}>
                <option value="">Cualquier cambio de precio</option>
                {PRECIO_ORIGENES.filter((o) => o !== 'alta').map((o) => (
                  <option key={o} value={o}>
                    {PRECIO_ORIGEN_LABELS[o]}
                  </option>
                ))}
              </Select>
            </Field>
            {referencia ? (
              <p className="self-end pb-2 text-sm text-slate-600" data-testid="etq-referencia">
                Solo los productos de ese cambio.
              </p>
            ) : (
              <Field id="etq-desde" label="Desde el">
                <Input id="etq-desde" type="date" value={desde} onChange={(e) => setDesde(e.target.value)} />
              </Field>
            )}
          </div>
        )}
        {fuente === 'categoria' && (
          <Field id="etq-categoria" label="Categoría">
            <Select id="etq-categoria" value={categoria} onChange={(e) => setCategoria(e.target.value)}>
              <option value="">Elegí una categoría</option>
              {(categorias.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nombre}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {fuente === 'seleccion' && (
          <div className="space-y-2">
            <Field id="etq-buscar" label="Buscar productos">
              <Input
                id="etq-buscar"
                value={q}
                placeholder="Nombre, código o código de barras"
                onChange={(e) => setQ(e.target.value)}
              />
            </Field>
            <ul
              className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
              aria-label="Productos"
            >
              {(productos.data?.rows ?? []).map((p) => (
                <li key={p.id}>
                  <label className="flex items-center gap-3 px-3 py-2 text-sm">
                    <input
                      type="checkbox"
                      checked={elegidos.has(p.id)}
                      onChange={(e) =>
                        setElegidos((m) => {
                          const next = new Map(m);
                          if (e.target.checked) next.set(p.id, { nombre: p.nombre, codigo_barras: p.codigo_barras });
                          else next.delete(p.id);
                          return next;
                        })
                      }
                    />
                    <span className="flex-1">{p.nombre}</span>
                    <span className="text-slate-500">{p.codigo_barras ?? 'sin código de barras'}</span>
                    <span className="w-28 text-right">{formatMoney(p.precio_venta, formatting)}</span>
                  </label>
                </li>
              ))}
              {productos.data && !productos.data.rows.length && (
                <li className="px-3 py-4 text-center text-sm text-slate-500">
                  Ningún producto coincide con la búsqueda.
                </li>
              )}
            </ul>
            <p className="text-sm text-slate-600">
              {elegidos.size === 1 ? '1 producto elegido.' : `${elegidos.size} productos elegidos.`}
            </p>
            {plantilla === 'codigo' && sinCodigo.length > 0 && (
              <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                <p>
                  {sinCodigo.length === 1 ? '1 producto no tiene' : `${sinCodigo.length} productos no tienen`} código de
                  barras: asignales un código interno (EAN-13 que empieza con 04, que no se confunde con las etiquetas
                  de balanza) para que se puedan escanear.
                </p>
                {can('productos', 'editar') && (
                  <Button
                    size="sm"
                    variant="secondary"
                    className="mt-2"
                    loading={asignar.isPending}
                    onClick={() => asignar.mutate()}
                  >
                    <Barcode className="h-4 w-4" aria-hidden /> Asignar códigos internos
                  </Button>
                )}
                {asignar.isError && <ErrorNote>{errorMessage(asignar.error)}</ErrorNote>}
              </div>
            )}
          </div>
        )}
        {descarga.error && <ErrorNote>{descarga.error}</ErrorNote>}
        <div className="flex justify-end">
          <Button
            disabled={!listo}
            loading={descarga.busy}
            onClick={() => descarga.run(`/businesses/${businessId}/etiquetas`, query)}
          >
            <Download className="h-4 w-4" aria-hidden /> Descargar PDF
          </Button>
        </div>
        <ImprimirEtiquetas query={query} disabled={!listo} />
      </Card>
      <p className="flex items-start gap-2 text-xs text-slate-500">
        <Tags className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        Las etiquetas de góndola muestran el precio final, y en letra más chica el precio por unidad de medida y el
        precio sin impuestos nacionales, como pide la Resolución 4/2025 de la Secretaría de Industria y Comercio. Para
        el precio por unidad, cargá el contenido neto de cada producto (por ejemplo 500 g).
      </p>
    </div>
  );
}
