import { ALICUOTA_LABELS, FACTURA_TIPO_LABELS, type Factura } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Card } from '@/components/ui/misc';
import { formatDate, formatMoney } from '@/lib/format';

/** The supplier's invoice of a purchase, as recorded (decision 0021). */
export function FacturaDetail({ f }: { f: Factura }) {
  const { formatting } = useBusiness();
  const m = (v: number) => formatMoney(v, formatting);
  const rows: [string, number][] = [
    ...f.iva.flatMap((i): [string, number][] => [
      [`Neto gravado ${ALICUOTA_LABELS[i.alicuota]}`, i.neto],
      [`IVA ${ALICUOTA_LABELS[i.alicuota]}`, i.iva],
    ]),
    ['No gravado', f.no_gravado],
    ['Exento', f.exento],
    ['Percepción IVA', f.percepcion_iva],
    ['Percepción IIBB', f.percepcion_iibb],
    ['Otros impuestos', f.otros_impuestos],
  ];
  return (
    <section aria-label="Factura del proveedor">
      <Card className="print:shadow-none">
        <h2 className="mb-3 text-base font-semibold text-slate-900">Factura del proveedor</h2>
        <p className="text-sm text-slate-700">
          {FACTURA_TIPO_LABELS[f.tipo]} {f.comprobante} · {formatDate(f.fecha, formatting)}
        </p>
        <dl className="mt-3 grid max-w-md grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
          {rows
            .filter(([, v]) => v !== 0)
            .map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-slate-600">{k}</dt>
                <dd className="text-right tabular-nums">{m(v)}</dd>
              </div>
            ))}
          <dt className="border-t border-slate-200 pt-1 font-medium text-slate-700">Total de la factura</dt>
          <dd className="border-t border-slate-200 pt-1 text-right font-semibold tabular-nums">{m(f.total)}</dd>
        </dl>
      </Card>
    </section>
  );
}
