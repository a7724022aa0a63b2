import { TURNO_MOVE_LABELS, type MedioPago, type Turno } from '@mostrador/shared/caja';
import { cierreFilas, type CierreFila } from '@mostrador/shared/cierre-turno';
import { PrintPortal, printPage, type TicketFormat } from '@/features/pos/ticket';
import { cn } from '@/lib/cn';
import { formatDateTime, formatMoney, type Formatting } from '@/lib/format';

interface Props {
  turno: Turno;
  medios: MedioPago[];
  business: { nombre: string } | null;
  formatting: Formatting;
}

/** The parts of each medio's esperado, in the order they add up (retiros and devoluciones negative). */
const PARTES: { key: keyof Omit<CierreFila, 'medio' | 'total'>; label: string }[] = [
  { key: 'fondo', label: 'Fondo inicial' },
  { key: 'ventas', label: 'Ventas' },
  { key: 'cobros', label: 'Cobros de cuenta corriente' },
  { key: 'ingresos', label: 'Ingresos' },
  { key: 'retiros', label: 'Retiros' },
  { key: 'devoluciones', label: 'Devoluciones' },
];

/** The closing report of a turno (or its state while open), on an 80 mm roll or an A4 page. */
export function TurnoReport({ turno, business, formatting, format }: Props & { format: TicketFormat }) {
  const money = (n: number | null) => formatMoney(n ?? 0, formatting);
  const narrow = format === '80mm';
  const row = (label: string, value: string, strong = false) => (
    <div className={cn('flex justify-between gap-2', strong && 'font-bold')}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  const closed = turno.estado === 'cerrado';
  const filas = cierreFilas(turno);
  const total = filas.find((f) => f.total);
  return (
    <article aria-label={`Cierre del turno #${turno.numero}`} className={printPage(format)}>
      <header className={cn(narrow ? 'text-center' : 'border-b border-black pb-3')}>
        <p className={cn('font-bold', narrow ? 'text-sm' : 'text-xl')}>{business?.nombre ?? 'Mostrador'}</p>
        <p className="font-semibold">
          {closed ? 'Cierre de caja' : 'Estado de caja'} · {turno.caja_nombre} · Turno #{turno.numero}
        </p>
      </header>
      <dl className="mt-2 space-y-0.5">
        {row('Abrió', `${turno.abierto_por?.nombre ?? '—'} · ${formatDateTime(turno.abierto_en, formatting)}`)}
        {closed &&
          row('Cerró', `${turno.cerrado_por?.nombre ?? '—'} · ${formatDateTime(turno.cerrado_en, formatting)}`)}
        {row(
          'Ventas',
          turno.ventas_total === null
            ? String(turno.ventas_cantidad)
            : `${turno.ventas_cantidad} · ${money(turno.ventas_total)}`,
        )}
      </dl>
      {turno.arqueo_ciego ? (
        <p className="mt-3">Arqueo a ciegas: lo esperado en caja y la diferencia se ven al cerrar el turno.</p>
      ) : (
        <>
          <h3 className="mt-3 font-semibold">Ventas por medio de pago</h3>
          <dl className="space-y-0.5">
            {turno.por_medio
              .filter((m) => m.ventas_cantidad > 0)
              .map((m) => (
                <div key={m.medio_pago_id}>{row(`${m.nombre} (${m.ventas_cantidad})`, money(m.ventas))}</div>
              ))}
            {turno.por_medio.every((m) => m.ventas_cantidad === 0) && <p>Sin ventas.</p>}
          </dl>
          <h3 className="mt-3 font-semibold">{closed ? 'Arqueo' : 'Esperado en caja'}</h3>
          {filas
            .filter((f) => !f.total && f.esperado !== null)
            .map((f) => (
              <section key={f.medio} aria-label={f.medio} className="mt-1 border-t border-black/30 pt-1">
                <p className="font-semibold">{f.medio}</p>
                <dl className="space-y-0.5">
                  {PARTES.filter((p) => (f[p.key] ?? 0) !== 0).map((p) => (
                    <div key={p.key}>{row(p.label, money(f[p.key]))}</div>
                  ))}
                  {row('= Esperado', money(f.esperado), true)}
                  {closed && row('Contado', money(f.contado))}
                  {closed && row('Diferencia', money(f.diferencia), f.diferencia !== 0)}
                </dl>
              </section>
            ))}
          {total && (
            <dl className="mt-2 space-y-0.5 border-t border-black pt-1">
              {row('Total esperado', money(total.esperado), true)}
              {closed && row('Total contado', money(total.contado))}
              {closed && row('Diferencia total', money(turno.diferencia), true)}
            </dl>
          )}
          {filas
            .filter((f) => !f.total && f.esperado === null)
            .map((f) => (
              <p key={f.medio} className="mt-1">
                {f.medio}: {money(f.ventas)}
              </p>
            ))}
        </>
      )}
      {turno.movimientos.length > 0 && (
        <>
          <h3 className="mt-3 font-semibold">Ingresos y retiros</h3>
          <ul>
            {turno.movimientos.map((m) => (
              <li key={m.id} className="flex justify-between gap-2">
                <span>
                  {TURNO_MOVE_LABELS[m.tipo]}: {m.motivo}
                </span>
                <span>{money(m.tipo === 'retiro' ? -m.monto : m.monto)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {turno.observaciones && <p className="mt-2">Obs.: {turno.observaciones}</p>}
    </article>
  );
}

export function PrintableTurno(props: Props) {
  return <PrintPortal render={(format) => <TurnoReport {...props} format={format} />} />;
}
