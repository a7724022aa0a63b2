import { useState } from 'react';
import type { z } from 'zod';
import { PUERTO_IMPRESORA, type ImpresoraInput, type impresoraSchema } from '@mostrador/shared/impresion';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { conexionElegida, conexionesDisponibles, elegirImpresora, type Conexion } from './navegador';

/*
 * A caja's printer in the caja's form (issue 35): none (the browser's print dialog), a network
 * printer the server prints on, or one attached to this computer (Chromium: USB or serial).
 */

export interface ImpresoraDraft {
  tipo: '' | 'red' | 'navegador';
  host: string;
  puerto: string;
  ancho: '58' | '80';
  abrir_cajon: boolean;
}

export const draftDe = (i: z.infer<typeof impresoraSchema> | undefined): ImpresoraDraft => ({
  tipo: i?.tipo ?? '',
  host: i?.tipo === 'red' ? i.host : '',
  puerto: i?.tipo === 'red' ? String(i.puerto) : String(PUERTO_IMPRESORA),
  ancho: i?.ancho === 58 ? '58' : '80',
  abrir_cajon: i?.abrir_cajon ?? false,
});

/** The draft as the API takes it; the field errors the screen can tell before sending. */
export function impresoraDe(d: ImpresoraDraft): { value: ImpresoraInput; errors: Record<string, string> } {
  if (!d.tipo) return { value: null, errors: {} };
  const ancho = Number(d.ancho) as 58 | 80;
  if (d.tipo === 'navegador') return { value: { tipo: 'navegador', ancho, abrir_cajon: d.abrir_cajon }, errors: {} };
  const errors: Record<string, string> = {};
  const host = d.host.trim();
  if (!host)
    errors['impresora.host'] = 'Ingresá la IP o el nombre de la impresora en la red (por ejemplo 192.168.0.50).';
  const puerto = Number(d.puerto);
  if (!Number.isInteger(puerto) || puerto < 1 || puerto > 65535)
    errors['impresora.puerto'] = 'El puerto va de 1 a 65535 (las impresoras térmicas usan el 9100).';
  return { value: { tipo: 'red', host, puerto, ancho, abrir_cajon: d.abrir_cajon }, errors };
}

const CONEXION_LABEL: Record<Conexion, string> = { serie: 'USB-serie o Bluetooth (Web Serial)', usb: 'USB (WebUSB)' };

export function ImpresoraFields({
  draft,
  onChange,
  errors,
}: {
  draft: ImpresoraDraft;
  onChange: (d: ImpresoraDraft) => void;
  errors: Record<string, string | undefined>;
}) {
  const set = (p: Partial<ImpresoraDraft>) => onChange({ ...draft, ...p });
  const conexiones = conexionesDisponibles();
  const [elegida, setElegida] = useState(conexionElegida);
  const [aviso, setAviso] = useState<string | null>(null);
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium">Impresora de tickets</legend>
      <Field
        id="caja-impresora-tipo"
        label="Impresora"
        hint="Con impresora térmica los tickets salen sin el diálogo de impresión del navegador."
      >
        <Select
          id="caja-impresora-tipo"
          value={draft.tipo}
          onChange={(e) => set({ tipo: e.target.value as ImpresoraDraft['tipo'] })}
        >
          <option value="">Sin impresora (diálogo del navegador)</option>
          <option value="red">Impresora de red</option>
          <option value="navegador">Conectada a esta computadora (USB o serie)</option>
        </Select>
      </Field>
      {draft.tipo === 'red' && (
        <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
          <Field id="caja-impresora-host" label="IP o nombre en la red" error={errors['impresora.host']} required>
            <Input
              id="caja-impresora-host"
              placeholder="192.168.0.50"
              value={draft.host}
              onChange={(e) => set({ host: e.target.value })}
              aria-invalid={Boolean(errors['impresora.host'])}
            />
          </Field>
          <Field id="caja-impresora-puerto" label="Puerto" error={errors['impresora.puerto']}>
            <Input
              id="caja-impresora-puerto"
              inputMode="numeric"
              value={draft.puerto}
              onChange={(e) => set({ puerto: e.target.value.replace(/\D/g, '') })}
              aria-invalid={Boolean(errors['impresora.puerto'])}
            />
          </Field>
        </div>
      )}
      {draft.tipo === 'navegador' && (
        <div className="space-y-2 text-sm">
          {conexiones.length ? (
            <div className="flex flex-wrap gap-2">
              {conexiones.map((c) => (
                <Button
                  key={c}
                  type="button"
                  variant="secondary"
                  size="sm"
                  onClick={() =>
                    elegirImpresora(c).then(
                      () => (setElegida(c), setAviso(`Impresora elegida: ${CONEXION_LABEL[c]}.`)),
                      (e: unknown) => setAviso(e instanceof Error ? e.message : 'No se eligió ninguna impresora.'),
                    )
                  }
                >
                  Elegir impresora {CONEXION_LABEL[c]}
                </Button>
              ))}
            </div>
          ) : (
            <p role="alert" className="text-amber-700">
              Este navegador no puede usar impresoras conectadas: abrí Mostrador en Chrome o Edge, o usá una impresora
              de red.
            </p>
          )}
          <p className="text-slate-600" aria-live="polite">
            {aviso ??
              (elegida
                ? `En esta computadora: ${CONEXION_LABEL[elegida]}.`
                : 'Todavía no elegiste la impresora en esta computadora.')}
          </p>
        </div>
      )}
      {draft.tipo && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="caja-impresora-ancho" label="Ancho del papel">
            <Select
              id="caja-impresora-ancho"
              value={draft.ancho}
              onChange={(e) => set({ ancho: e.target.value as ImpresoraDraft['ancho'] })}
            >
              <option value="80">80 mm</option>
              <option value="58">58 mm</option>
            </Select>
          </Field>
          <label className="flex items-center gap-2 self-end pb-2 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4"
              checked={draft.abrir_cajon}
              onChange={(e) => set({ abrir_cajon: e.target.checked })}
            />
            Abrir el cajón en las ventas en efectivo
          </label>
        </div>
      )}
    </fieldset>
  );
}
