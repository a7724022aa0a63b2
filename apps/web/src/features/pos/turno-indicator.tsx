import { useState } from 'react';
import type { Caja, TurnoResumen } from '@mostrador/shared/caja';
import { Button } from '@/components/ui/button';

/**
 * The caja and turno this device sells in. Without a caja chosen on the device, the cashier picks
 * one here (a colleague's turno only this way, knowingly); "Abrir turno" opens the device's caja.
 */
export function TurnoIndicator({
  turno,
  caja,
  cajas,
  pending,
  requireTurno,
  onChoose,
  onOpen,
}: {
  turno: TurnoResumen | null;
  caja: Caja | null;
  cajas: Caja[];
  pending: boolean;
  requireTurno: boolean;
  onChoose: (cajaId: string) => void;
  onOpen: () => void;
}) {
  const [changing, setChanging] = useState(false);
  if (pending && !turno) return null;
  if (!caja && !turno) {
    return <CajaChooser cajas={cajas} onChoose={onChoose} />;
  }
  if (changing) {
    return (
      <CajaChooser
        cajas={cajas}
        onChoose={(id) => {
          onChoose(id);
          setChanging(false);
        }}
        onCancel={() => setChanging(false)}
      />
    );
  }
  const change = cajas.length > 1 && (
    <button
      type="button"
      className="min-h-11 shrink-0 px-1 text-sm font-medium text-blue-700 hover:underline"
      onClick={() => setChanging(true)}
    >
      Cambiar caja
    </button>
  );
  if (turno) {
    return (
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          <span data-testid="pos-turno">
            {turno.caja_nombre} · Turno #{turno.numero}
          </span>
          {turno.abierto_por && <span className="text-slate-500"> · abrió {turno.abierto_por.nombre}</span>}
        </p>
        {change}
      </div>
    );
  }
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-amber-50 p-2 text-sm text-amber-800"
    >
      <span>
        {requireTurno
          ? `${caja!.nombre} no tiene un turno abierto: abrilo para vender.`
          : `${caja!.nombre}: vendés sin turno de caja.`}
      </span>
      <span className="flex items-center gap-1">
        {change}
        <Button className="h-11 shrink-0 whitespace-nowrap" onClick={onOpen}>
          Abrir turno
        </Button>
      </span>
    </div>
  );
}

function CajaChooser({
  cajas,
  onChoose,
  onCancel,
}: {
  cajas: Caja[];
  onChoose: (id: string) => void;
  onCancel?: () => void;
}) {
  return (
    <fieldset className="space-y-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900" data-testid="pos-elegir-caja">
      <legend className="sr-only">Caja de este dispositivo</legend>
      <p>¿En qué caja vende este dispositivo? Queda guardado en este equipo.</p>
      <div className="grid gap-1.5">
        {cajas.map((c) => (
          <Button key={c.id} variant="secondary" className="h-11 justify-between" onClick={() => onChoose(c.id)}>
            <span>{c.nombre}</span>
            <span className="text-xs font-normal text-slate-500">
              {c.turno_abierto
                ? `Turno #${c.turno_abierto.numero}${c.turno_abierto.abierto_por ? ` de ${c.turno_abierto.abierto_por.nombre}` : ''}`
                : 'Sin turno abierto'}
            </span>
          </Button>
        ))}
      </div>
      {onCancel && (
        <button type="button" className="min-h-11 font-medium text-blue-700 hover:underline" onClick={onCancel}>
          Volver
        </button>
      )}
    </fieldset>
  );
}
