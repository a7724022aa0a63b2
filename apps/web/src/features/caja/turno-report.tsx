import { TURNO_MOVE_LABELS, type MedioPago, type Turno } from '@mostrador/shared/caja';
import { PrintPortal, printPage, type TicketFormat } from '@/features/pos/ticket';
import { cn } from '@/lib/cn';
import { formatDateTime, formatMoney, type Formatting } from '@/lib/format';

interface Props {
  turno: Turno;
  medios: MedioPago[];
  business: { nombre: string } | null;
  formatting: Formatting;
}

/** The closing report of a turno (or its state while open), on an 80 mm roll or an A4 page. */
export function TurnoReport({ turno, medios, business, formatting, format }: Props & { format: TicketFormat }) {
  const money = (n: number | null) => formatMoney(n ?? 0, formatting);
  const narrow = format === '80mm';
  const nombre = (id: string) =>
    turno.por_medio.find((m) => m.medio_pago_id === id)?.nombre ?? medios.find((m) => m.id === id)?.nombre ?? '—';
  const row = (label: string, value: string, strong = false) => (
    <div className={cn('flex justify-between gap-2', strong && 'font-bold')}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  const closed = turno.estado === 'cerrado';
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
        {row('Fondo inicial', money(turno.fondo_inicial))}
        {row('Ventas', `${turno.ventas_cantidad} · ${money(turno.ventas_total)}`)}
        {row('Ingresos de efectivo', money(turno.ingresos))}
        {row('Retiros de efectivo', money(turno.retiros))}
        {turno.devoluciones > 0 && row('Devoluciones', money(-turno.devoluciones))}
      </dl>
      <h3 className="mt-3 font-semibold">Ventas por medio de pago</h3>
      <dl className="space-y-0.5">
        {turno.por_medio
          .filter((m) => m.ventas_cantidad > 0)
          .map((m) => (
            <div key={m.medio_pago_id}>{row(`${m.nombre} (${m.ventas_cantidad})`, money(m.ventas))}</div>
          ))}
        {turno.por_medio.every((m) => m.ventas_cantidad === 0) && <p>Sin ventas.</p>}
      </dl>
      {turno.devoluciones > 0 && (
        <>
          <h3 className="mt-3 font-semibold">Devoluciones por medio de pago</h3>
          <dl className="space-y-0.5">
            {turno.por_medio
              .filter((m) => m.devoluciones > 0)
              .map((m) => (
                <div key={m.medio_pago_id}>{row(m.nombre, money(-m.devoluciones))}</div>
              ))}
          </dl>
        </>
      )}
      <h3 className="mt-3 font-semibold">{closed ? 'Arqueo' : 'Esperado en caja'}</h3>
      <table className="w-full border-collapse">
        <thead>
          <tr className="border-b border-black text-left">
            <th className="py-0.5">Medio</th>
            <th className="py-0.5 text-right">Esperado</th>
            {closed && <th className="py-0.5 text-right">Contado</th>}
            {closed && <th className="py-0.5 text-right">Dif.</th>}
          </tr>
        </thead>
        <tbody>
          {closed
            ? turno.diferencias
                .filter((d) => d.esperado !== 0 || d.contado !== 0)
                .map((d) => (
                  <tr key={d.medio_pago_id}>
                    <td className="py-0.5">{nombre(d.medio_pago_id)}</td>
                    <td className="py-0.5 text-right">{money(d.esperado)}</td>
                    <td className="py-0.5 text-right">{money(d.contado)}</td>
                    <td className={cn('py-0.5 text-right', d.diferencia !== 0 && 'font-bold')}>
                      {money(d.diferencia)}
                    </td>
                  </tr>
                ))
            : turno.esperado
                .filter((e) => e.monto !== 0)
                .map((e) => (
                  <tr key={e.medio_pago_id}>
                    <td className="py-0.5">{nombre(e.medio_pago_id)}</td>
                    <td className="py-0.5 text-right">{money(e.monto)}</td>
                  </tr>
                ))}
        </tbody>
      </table>
      {closed && <dl className="mt-1">{row('Diferencia total', money(turno.diferencia), true)}</dl>}
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
