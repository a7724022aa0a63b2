import { useQuery } from '@tanstack/react-query';
import { FileText, Printer, Search } from 'lucide-react';
import { useState } from 'react';
import {
  CONDICION_IVA_RECEPTOR_LABELS,
  CONDICIONES_IVA_RECEPTOR,
  DOC_TIPO_LABELS,
  DOC_TIPOS,
  FACTURACION_MESSAGES,
  receptorInput,
  type ComprobanteList,
  type ComprobanteResumen,
  type DocTipo,
  type ReceptorInput,
} from '@mostrador/shared/facturacion';
import type { Sale } from '@mostrador/shared/sales';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { useCan } from '@/features/permissions/permissions.api';
import { useSale } from '@/features/sales/sales.api';
import { api, errorMessage } from '@/lib/api';
import { todayIn } from '@/lib/format';
import { comprobanteTitulo, ComprobanteEstadoNote, EstadoBadge, InvoicePreviewDialog } from './comprobante-ui';
import { POLL_MS, useEmitir, usePadron } from './facturacion.api';
import { PadronAdvertencias } from './padron-button';

/**
 * The comprobantes of one sale (its factura and the notas de crédito of its voids and returns)
 * for the sale's detail in the sales report. The list route filters by `venta_id` when the API
 * knows it; the rows are filtered here too, so the answer is right either way.
 */
function useSaleComprobantes(ventaId: string) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    // Under the sales' key: a void or a return (which issue notas de crédito) refreshes it.
    queryKey: ['sales', b, 'comprobantes', ventaId],
    queryFn: async () => {
      const r = await api.get<ComprobanteList>(`/businesses/${b}/facturacion/comprobantes`, {
        venta_id: ventaId,
        limit: 500,
      });
      return r.comprobantes.filter((c) => c.venta_id === ventaId);
    },
    enabled: Boolean(b),
    staleTime: 15_000,
    refetchInterval: (q) => (q.state.data?.some((c) => c.estado === 'pendiente') ? POLL_MS : false),
  });
}

/** The facturación block of a sale's detail: its comprobantes, and "Emitir factura" when it has none. */
export default function SaleComprobantes({ sale }: { sale: Sale }) {
  const can = useCan();
  const detail = useSale(sale.id);
  const list = useSaleComprobantes(sale.id);
  const [emitting, setEmitting] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const rows: ComprobanteResumen[] = [...(list.data ?? [])];
  const factura = detail.data?.comprobante ?? null;
  if (factura && !rows.some((r) => r.id === factura.id)) rows.unshift(factura);
  const hasFactura = rows.some((r) => r.tipo.startsWith('factura'));
  const canEmit = can('ventas', 'editar') && sale.estado === 'completada' && !hasFactura && !list.isLoading;
  if (!rows.length && !canEmit) return null;
  return (
    <section
      className="mt-3 rounded-lg border border-slate-200 bg-white p-3"
      aria-label={`Facturación de la venta #${sale.numero}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex items-center gap-1.5 text-sm font-semibold text-slate-800">
          <FileText className="h-4 w-4 text-slate-500" aria-hidden /> Facturación
        </h3>
        {canEmit && (
          <Button size="sm" onClick={() => setEmitting(true)}>
            Emitir factura
          </Button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">La venta no tiene factura.</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {rows.map((c) => (
            <li key={c.id} className="text-sm" data-testid="venta-comprobante">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-slate-900">{comprobanteTitulo(c)}</span>
                <EstadoBadge estado={c.estado} />
                {c.cae && (
                  <span className="text-slate-500">
                    {c.emision === 'caea' ? 'CAEA' : 'CAE'} {c.cae}
                  </span>
                )}
                <Button size="sm" variant="ghost" className="ml-auto" onClick={() => setViewing(c.id)}>
                  <Printer className="h-4 w-4" aria-hidden /> Ver
                </Button>
              </div>
              {(c.estado !== 'autorizado' || c.caea_informe === 'rechazado') && (
                <ComprobanteEstadoNote comprobante={c} onRetry={can('ventas', 'editar')} compact />
              )}
            </li>
          ))}
        </ul>
      )}
      {emitting && (
        <EmitirDialog
          sale={detail.data ?? sale}
          onClose={() => setEmitting(false)}
          onDone={(id) => {
            setEmitting(false);
            setViewing(id);
          }}
        />
      )}
      {viewing && <InvoicePreviewDialog id={viewing} onClose={() => setViewing(null)} />}
    </section>
  );
}

export type ReceptorModo = 'cliente' | 'consumidor_final' | 'documento';

/**
 * The `receptor` of "Emitir factura": none (the sale's customer as stored), a consumidor final
 * without document, or the CUIT/DNI typed, checked with the shared schema (field messages).
 */
export function receptorFor(
  modo: ReceptorModo,
  f: { condicion: string; docTipo: DocTipo; docNro: string; nombre: string; domicilio: string },
): { receptor: ReceptorInput | undefined } | { errors: Record<string, string> } {
  if (modo === 'cliente') return { receptor: undefined };
  const raw: ReceptorInput =
    modo === 'consumidor_final'
      ? { condicion_iva: 'consumidor_final', doc_tipo: 'sin_documento' }
      : {
          condicion_iva: f.condicion as ReceptorInput['condicion_iva'],
          doc_tipo: f.docTipo,
          doc_nro: f.docNro,
          nombre: f.nombre || null,
          domicilio: f.domicilio || null,
        };
  const r = receptorInput.safeParse(raw);
  if (r.success) return { receptor: raw };
  const errors: Record<string, string> = {};
  for (const i of r.error.issues) errors[String(i.path[0])] ??= i.message;
  return { errors };
}

/** The document kinds a receptor typed when issuing may have (not "sin documento"). */
const DOCS_RECEPTOR = DOC_TIPOS.filter((d) => d !== 'sin_documento');

/**
 * The service's period and the payment's due date of a sale with services (ARCA's Concepto 2 or
 * 3): the sale's day and the invoice's date unless changed; checked before sending.
 */
type ServicioFor =
  | { errors: Record<string, string>; servicio?: undefined }
  | { errors?: undefined; servicio: Partial<Record<'servicio_desde' | 'servicio_hasta' | 'vencimiento_pago', string>> };

export function servicioFor(f: { desde: string; hasta: string; vencimiento: string }, hoy: string): ServicioFor {
  const errors: Record<string, string> = {};
  if (f.desde && f.hasta && f.hasta < f.desde) errors.servicio_hasta = FACTURACION_MESSAGES.servicioHastaAntes;
  if (f.vencimiento && f.vencimiento < hoy) errors.vencimiento_pago = FACTURACION_MESSAGES.vtoPagoAntes;
  if (Object.keys(errors).length) return { errors };
  return {
    servicio: {
      ...(f.desde ? { servicio_desde: f.desde } : {}),
      ...(f.hasta ? { servicio_hasta: f.hasta } : {}),
      ...(f.vencimiento ? { vencimiento_pago: f.vencimiento } : {}),
    },
  };
}

/** "Emitir factura" of a past sale: to its customer, or to a consumidor final or a CUIT/DNI. */
export function EmitirDialog({
  sale,
  onClose,
  onDone,
}: {
  sale: Sale;
  onClose: () => void;
  onDone: (id: string) => void;
}) {
  const emitir = useEmitir();
  const padron = usePadron();
  const { timezone } = useBusiness().formatting;
  const hoy = todayIn(timezone);
  const diaVenta = todayIn(timezone, new Date(sale.fecha));
  const conServicios = sale.items.some((i) => i.tipo === 'servicio');
  const [servDesde, setServDesde] = useState(diaVenta);
  const [servHasta, setServHasta] = useState(diaVenta);
  const [vtoPago, setVtoPago] = useState(hoy);
  const [modo, setModo] = useState<ReceptorModo>(sale.cliente_id ? 'cliente' : 'consumidor_final');
  const [docTipo, setDocTipo] = useState<DocTipo>('CUIT');
  const [docNro, setDocNro] = useState('');
  const [condicion, setCondicion] = useState<string>('consumidor_final');
  const [nombre, setNombre] = useState('');
  const [domicilio, setDomicilio] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [padronNote, setPadronNote] = useState<string | null>(null);
  const [padronAdv, setPadronAdv] = useState<string[]>([]);

  function receptor(): ReceptorInput | undefined | null {
    const r = receptorFor(modo, { condicion, docTipo, docNro, nombre, domicilio });
    if ('errors' in r) {
      setErrors(r.errors);
      return null;
    }
    return r.receptor;
  }

  async function buscar() {
    setPadronNote(null);
    setPadronAdv([]);
    setErrors({});
    try {
      const p = await padron.mutateAsync(docNro);
      setNombre(p.nombre);
      setDomicilio(p.domicilio ?? '');
      setCondicion(p.condicion_iva);
      setPadronNote(`ARCA: ${p.nombre} · ${CONDICION_IVA_RECEPTOR_LABELS[p.condicion_iva]}`);
      setPadronAdv(p.advertencias);
    } catch (e) {
      setErrors({ doc_nro: errorMessage(e, 'No se pudo consultar el padrón de ARCA.') });
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Emitir factura de la venta #${sale.numero}`}
      description="La factura se pide a ARCA; si ARCA no responde, queda pendiente y se reintenta sola."
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">¿A quién se factura?</legend>
        <div className="mt-2 space-y-2 text-sm">
          {sale.cliente_id && (
            <label className="flex items-center gap-2">
              <input type="radio" name="receptor" checked={modo === 'cliente'} onChange={() => setModo('cliente')} />
              Al cliente de la venta: {sale.cliente_nombre}
            </label>
          )}
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="receptor"
              checked={modo === 'consumidor_final'}
              onChange={() => setModo('consumidor_final')}
            />
            Consumidor final (sin identificar)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="receptor" checked={modo === 'documento'} onChange={() => setModo('documento')} />
            Con CUIT o DNI
          </label>
        </div>
      </fieldset>
      {modo === 'documento' && (
        <div className="mt-4 grid gap-3 sm:grid-cols-[8rem_1fr]">
          <Field id="em-doctipo" label="Documento">
            <Select
              id="em-doctipo"
              value={docTipo}
              onChange={(e) => {
                setDocTipo(e.target.value as DocTipo);
                if (e.target.value === 'DNI') setCondicion('consumidor_final');
              }}
            >
              {DOCS_RECEPTOR.map((d) => (
                <option key={d} value={d}>
                  {DOC_TIPO_LABELS[d]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="em-docnro" label="Número" required error={errors.doc_nro}>
            <div className="flex gap-2">
              <Input
                id="em-docnro"
                inputMode="numeric"
                value={docNro}
                onChange={(e) => setDocNro(e.target.value)}
                aria-invalid={Boolean(errors.doc_nro)}
              />
              {docTipo === 'CUIT' && (
                <Button
                  variant="secondary"
                  onClick={() => void buscar()}
                  loading={padron.isPending}
                  disabled={!docNro.trim()}
                >
                  <Search className="h-4 w-4" aria-hidden /> Buscar en ARCA
                </Button>
              )}
            </div>
          </Field>
          {padronNote && (
            <p role="status" className="text-sm text-emerald-700 sm:col-span-2">
              {padronNote}
            </p>
          )}
          {padronAdv.length > 0 && (
            <div className="sm:col-span-2">
              <PadronAdvertencias advertencias={padronAdv} />
            </div>
          )}
          <Field id="em-condicion" label="Condición frente al IVA" error={errors.condicion_iva}>
            <Select id="em-condicion" value={condicion} onChange={(e) => setCondicion(e.target.value)}>
              {CONDICIONES_IVA_RECEPTOR.map((c) => (
                <option key={c} value={c}>
                  {CONDICION_IVA_RECEPTOR_LABELS[c]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="em-nombre" label="Nombre o razón social" error={errors.nombre}>
            <Input id="em-nombre" value={nombre} onChange={(e) => setNombre(e.target.value)} />
          </Field>
          <div className="sm:col-span-2">
            <Field id="em-domicilio" label="Domicilio" error={errors.domicilio}>
              <Input id="em-domicilio" value={domicilio} onChange={(e) => setDomicilio(e.target.value)} />
            </Field>
          </div>
        </div>
      )}
      {conServicios && (
        <fieldset className="mt-4">
          <legend className="text-sm font-medium text-slate-700">Servicio facturado</legend>
          <p className="mt-1 text-xs text-slate-500">
            La venta incluye servicios: ARCA pide el período del servicio y el vencimiento del pago.
          </p>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            <Field id="em-serv-desde" label="Desde" error={errors.servicio_desde}>
              <Input id="em-serv-desde" type="date" value={servDesde} onChange={(e) => setServDesde(e.target.value)} />
            </Field>
            <Field id="em-serv-hasta" label="Hasta" error={errors.servicio_hasta}>
              <Input
                id="em-serv-hasta"
                type="date"
                value={servHasta}
                onChange={(e) => setServHasta(e.target.value)}
                aria-invalid={Boolean(errors.servicio_hasta)}
              />
            </Field>
            <Field id="em-vto-pago" label="Vencimiento del pago" error={errors.vencimiento_pago}>
              <Input
                id="em-vto-pago"
                type="date"
                value={vtoPago}
                min={hoy}
                onChange={(e) => setVtoPago(e.target.value)}
                aria-invalid={Boolean(errors.vencimiento_pago)}
              />
            </Field>
          </div>
        </fieldset>
      )}
      {error && (
        <div className="mt-3">
          <ErrorNote>{error}</ErrorNote>
        </div>
      )}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancelar
        </Button>
        <Button
          loading={emitir.isPending}
          onClick={async () => {
            setError(null);
            setErrors({});
            const r = receptor();
            if (r === null) return;
            const sv = conServicios
              ? servicioFor({ desde: servDesde, hasta: servHasta, vencimiento: vtoPago }, hoy)
              : ({ servicio: {} } as ServicioFor);
            if (sv.errors) {
              setErrors(sv.errors);
              return;
            }
            try {
              const c = await emitir.mutateAsync({
                venta_id: sale.id,
                ...(r ? { receptor: r } : {}),
                ...sv.servicio,
              });
              onDone(c.id);
            } catch (e) {
              setError(errorMessage(e, 'No se pudo emitir la factura.'));
            }
          }}
        >
          Emitir factura
        </Button>
      </div>
    </Dialog>
  );
}
