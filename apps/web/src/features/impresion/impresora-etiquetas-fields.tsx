import type { z } from 'zod';
import {
  PUERTO_IMPRESORA,
  type ImpresoraEtiquetasInput,
  type impresoraEtiquetasSchema,
} from '@mostrador/shared/impresion';
import { Field, Input, Select } from '@/components/ui/input';

/*
 * A caja's label printer in the caja's form (issue 35, decision 0054): none (labels as A4 PDF
 * sheets) or a Zebra-compatible printer on the network that the server sends ZPL to.
 */

export interface EtiquetasDraft {
  activa: boolean;
  host: string;
  puerto: string;
  dpi: '203' | '300';
  ancho_mm: string;
  alto_mm: string;
}

export const etiquetasDraftDe = (i: z.infer<typeof impresoraEtiquetasSchema> | undefined): EtiquetasDraft => ({
  activa: Boolean(i),
  host: i?.host ?? '',
  puerto: String(i?.puerto ?? PUERTO_IMPRESORA),
  dpi: i?.dpi === 300 ? '300' : '203',
  ancho_mm: String(i?.ancho_mm ?? 60),
  alto_mm: String(i?.alto_mm ?? 40),
});

/** The draft as the API takes it; the field errors the screen can tell before sending. */
export function impresoraEtiquetasDe(d: EtiquetasDraft): {
  value: ImpresoraEtiquetasInput;
  errors: Record<string, string>;
} {
  if (!d.activa) return { value: null, errors: {} };
  const errors: Record<string, string> = {};
  const host = d.host.trim();
  if (!host) errors['impresora_etiquetas.host'] = 'Ingresá la IP o el nombre de la impresora de etiquetas en la red.';
  const puerto = Number(d.puerto);
  if (!Number.isInteger(puerto) || puerto < 1 || puerto > 65535)
    errors['impresora_etiquetas.puerto'] = 'El puerto va de 1 a 65535 (las Zebra usan el 9100).';
  const ancho = Number(d.ancho_mm);
  if (!Number.isInteger(ancho) || ancho < 25 || ancho > 110)
    errors['impresora_etiquetas.ancho_mm'] = 'El ancho de la etiqueta va de 25 a 110 mm.';
  const alto = Number(d.alto_mm);
  if (!Number.isInteger(alto) || alto < 15 || alto > 150)
    errors['impresora_etiquetas.alto_mm'] = 'El alto de la etiqueta va de 15 a 150 mm.';
  return {
    value: { lenguaje: 'zpl', host, puerto, dpi: d.dpi === '300' ? 300 : 203, ancho_mm: ancho, alto_mm: alto },
    errors,
  };
}

export const CAMPOS_ETIQUETAS = ['host', 'puerto', 'dpi', 'ancho_mm', 'alto_mm'].map((c) => `impresora_etiquetas.${c}`);

export function ImpresoraEtiquetasFields({
  draft,
  onChange,
  errors,
}: {
  draft: EtiquetasDraft;
  onChange: (d: EtiquetasDraft) => void;
  errors: Record<string, string | undefined>;
}) {
  const set = (p: Partial<EtiquetasDraft>) => onChange({ ...draft, ...p });
  const num = (v: string) => v.replace(/\D/g, '');
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium">Impresora de etiquetas</legend>
      <Field
        id="caja-etiquetas-tipo"
        label="Impresora de etiquetas"
        hint="Con una Zebra (o compatible con ZPL) en la red, las etiquetas de góndola salen directo, sin hojas A4."
      >
        <Select
          id="caja-etiquetas-tipo"
          value={draft.activa ? 'zpl' : ''}
          onChange={(e) => set({ activa: e.target.value === 'zpl' })}
        >
          <option value="">Sin impresora de etiquetas (PDF en hojas A4)</option>
          <option value="zpl">Zebra o compatible (ZPL) en la red</option>
        </Select>
      </Field>
      {draft.activa && (
        <>
          <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
            <Field
              id="caja-etiquetas-host"
              label="IP o nombre de la impresora de etiquetas"
              error={errors['impresora_etiquetas.host']}
              required
            >
              <Input
                id="caja-etiquetas-host"
                placeholder="192.168.0.60"
                value={draft.host}
                onChange={(e) => set({ host: e.target.value })}
                aria-invalid={Boolean(errors['impresora_etiquetas.host'])}
              />
            </Field>
            <Field id="caja-etiquetas-puerto" label="Puerto de etiquetas" error={errors['impresora_etiquetas.puerto']}>
              <Input
                id="caja-etiquetas-puerto"
                inputMode="numeric"
                value={draft.puerto}
                onChange={(e) => set({ puerto: num(e.target.value) })}
                aria-invalid={Boolean(errors['impresora_etiquetas.puerto'])}
              />
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field id="caja-etiquetas-dpi" label="Resolución" error={errors['impresora_etiquetas.dpi']}>
              <Select
                id="caja-etiquetas-dpi"
                value={draft.dpi}
                onChange={(e) => set({ dpi: e.target.value as EtiquetasDraft['dpi'] })}
              >
                <option value="203">203 dpi</option>
                <option value="300">300 dpi</option>
              </Select>
            </Field>
            <Field id="caja-etiquetas-ancho" label="Ancho (mm)" error={errors['impresora_etiquetas.ancho_mm']}>
              <Input
                id="caja-etiquetas-ancho"
                inputMode="numeric"
                value={draft.ancho_mm}
                onChange={(e) => set({ ancho_mm: num(e.target.value) })}
                aria-invalid={Boolean(errors['impresora_etiquetas.ancho_mm'])}
              />
            </Field>
            <Field id="caja-etiquetas-alto" label="Alto (mm)" error={errors['impresora_etiquetas.alto_mm']}>
              <Input
                id="caja-etiquetas-alto"
                inputMode="numeric"
                value={draft.alto_mm}
                onChange={(e) => set({ alto_mm: num(e.target.value) })}
                aria-invalid={Boolean(errors['impresora_etiquetas.alto_mm'])}
              />
            </Field>
          </div>
        </>
      )}
    </fieldset>
  );
}
