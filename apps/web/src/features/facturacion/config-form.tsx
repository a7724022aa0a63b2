import { CheckCircle2, Download, FileKey2, KeyRound, PlugZap, ShieldCheck, XCircle } from 'lucide-react';
import { useEffect, useState, type ChangeEvent } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import {
  CONDICION_IVA_EMISOR_LABELS,
  CONDICIONES_IVA_EMISOR,
  ENTORNO_LABELS,
  ENTORNOS,
  FACTURAR_MODO_LABELS,
  FACTURAR_MODOS,
  facturacionConfigInput,
  facturarPorDefecto,
  type CondicionIvaEmisor,
  type FacturacionConfig,
  type FacturacionConfigInput,
  type ProbarResult,
} from '@mostrador/shared/facturacion';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { Card, ErrorNote } from '@/components/ui/misc';
import { RowsSkeleton, StatusNote } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { applyServerErrors } from '@/lib/forms';
import { formatDate } from '@/lib/format';
import { CaeaPanel } from './caea-panel';
import { useFacturacionConfig, useGenerateCsr, useProbarConexion, useSaveFacturacionConfig } from './facturacion.api';

export interface ConfigFormValues {
  cuit: string;
  razon_social: string;
  condicion_iva: string;
  inicio_actividades: string;
  iibb: string;
  domicilio_fiscal: string;
  punto_venta: string;
  /** "1, 2, 5": every punto de venta of the business. */
  puntos_venta: string;
  entorno: string;
  facturar: string;
  /** CAEA contingency (decision 0047): empty = none. */
  caea_punto_venta: string;
  caea_tras_minutos: string;
}

/** The form's text as the PUT's body: the puntos de venta list is split on commas and spaces. */
export function configBody(v: ConfigFormValues): FacturacionConfigInput {
  const puntos = v.puntos_venta
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    cuit: v.cuit,
    razon_social: v.razon_social,
    condicion_iva: v.condicion_iva as FacturacionConfigInput['condicion_iva'],
    inicio_actividades: v.inicio_actividades || null,
    iibb: v.iibb,
    domicilio_fiscal: v.domicilio_fiscal,
    punto_venta: v.punto_venta as unknown as number,
    puntos_venta: puntos.length ? (puntos as unknown as number[]) : undefined,
    entorno: v.entorno as FacturacionConfigInput['entorno'],
    facturar: v.facturar as FacturacionConfigInput['facturar'],
    caea_punto_venta: v.caea_punto_venta.trim() ? (v.caea_punto_venta as unknown as number) : null,
    caea_tras_minutos: v.caea_tras_minutos.trim() ? (v.caea_tras_minutos as unknown as number) : undefined,
  };
}

/** Checks the form with the shared schema; the messages go on the fields. */
const resolver: Resolver<ConfigFormValues> = async (values) => {
  const r = facturacionConfigInput.safeParse(configBody(values));
  if (r.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const i of r.error.issues) {
    const k = String(i.path[0] ?? 'cuit');
    errors[k] ??= { type: 'validation', message: i.message };
  }
  return { values: {}, errors: errors as never };
};

export const initialValues = (c: FacturacionConfig | undefined, fallbackCuit?: string | null): ConfigFormValues => ({
  cuit: c?.cuit ?? fallbackCuit ?? '',
  razon_social: c?.razon_social ?? '',
  condicion_iva: c?.condicion_iva ?? 'responsable_inscripto',
  inicio_actividades: c?.inicio_actividades ?? '',
  iibb: c?.iibb ?? '',
  domicilio_fiscal: c?.domicilio_fiscal ?? '',
  punto_venta: c?.punto_venta ? String(c.punto_venta) : '1',
  puntos_venta: c?.puntos_venta.join(', ') ?? '',
  entorno: c?.entorno ?? 'homologacion',
  // A new setup starts with its condition's mode (a responsable inscripto invoices every sale).
  facturar: c?.condicion_iva ? c.facturar : facturarPorDefecto(c?.condicion_iva ?? 'responsable_inscripto'),
  caea_punto_venta: c?.caea_punto_venta ? String(c.caea_punto_venta) : '',
  caea_tras_minutos: String(c?.caea_tras_minutos ?? 30),
});

/** The fiscal setup tab of /facturacion (admins). */
export default function ConfigTab() {
  const config = useFacturacionConfig();
  if (config.error) return <ErrorNote>{errorMessage(config.error)}</ErrorNote>;
  if (!config.data) return <RowsSkeleton rows={5} />;
  return (
    <div className="space-y-5">
      <ConfigForm config={config.data} />
      {config.data.caea_punto_venta !== null && <CaeaPanel />}
    </div>
  );
}

/** Reads a PEM file chosen in a file input as text. */
async function readPem(e: ChangeEvent<HTMLInputElement>): Promise<{ name: string; text: string } | null> {
  const file = e.target.files?.[0];
  if (!file) return null;
  const text = await file.text();
  return { name: file.name, text };
}

function ConfigForm({ config }: { config: FacturacionConfig }) {
  const { business, formatting } = useBusiness();
  const save = useSaveFacturacionConfig();
  const csr = useGenerateCsr();
  const probar = useProbarConexion();
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [cert, setCert] = useState<{ name: string; text: string } | null>(null);
  const [key, setKey] = useState<{ name: string; text: string } | null>(null);
  const [pemError, setPemError] = useState<string | null>(null);
  const [alias, setAlias] = useState('mostrador');
  const [csrResult, setCsrResult] = useState<{ pem: string; mensaje: string } | null>(null);
  const [csrError, setCsrError] = useState<string | null>(null);
  const [probarResult, setProbarResult] = useState<ProbarResult | null>(null);
  /** Bumped after a save: the file inputs mount again, empty. */
  const [fileKey, setFileKey] = useState(0);
  const form = useForm<ConfigFormValues>({ resolver, defaultValues: initialValues(config, business?.cuit) });
  const { register, handleSubmit, formState, setError, getValues, setValue, trigger, control } = form;
  const err = formState.errors;
  const condicion = useWatch({ control, name: 'condicion_iva' });
  const facturarTocado = Boolean(formState.dirtyFields.facturar);
  // Until the mode is chosen here, it follows the condition as the API would: the saved mode for
  // the saved condition, else the condition's default.
  useEffect(() => {
    if (facturarTocado || !CONDICIONES_IVA_EMISOR.includes(condicion as CondicionIvaEmisor)) return;
    const modo =
      config.condicion_iva === condicion ? config.facturar : facturarPorDefecto(condicion as CondicionIvaEmisor);
    if (getValues('facturar') !== modo) setValue('facturar', modo);
  }, [condicion, facturarTocado, config.condicion_iva, config.facturar, getValues, setValue]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setStatus(null);
    try {
      const saved = await save.mutateAsync({
        ...configBody(values),
        ...(cert ? { certificado_pem: cert.text } : {}),
        ...(key ? { clave_privada_pem: key.text } : {}),
      });
      setCert(null);
      setKey(null);
      setFileKey((k) => k + 1);
      form.reset(initialValues(saved));
      setStatus('Configuración fiscal guardada.');
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar la configuración.'));
    }
  });

  async function generateCsr() {
    setCsrError(null);
    setCsrResult(null);
    if (!(await trigger(['cuit', 'razon_social']))) {
      setCsrError('Para generar el pedido completá antes el CUIT y la razón social.');
      return;
    }
    try {
      const r = await csr.mutateAsync({ cuit: getValues('cuit'), razon_social: getValues('razon_social'), alias });
      setCsrResult({ pem: r.csr_pem, mensaje: r.mensaje });
      downloadCsr(r.csr_pem, alias);
    } catch (e) {
      setCsrError(errorMessage(e, 'No se pudo generar el pedido de certificado.'));
    }
  }

  async function runProbar() {
    setProbarResult(null);
    try {
      setProbarResult(await probar.mutateAsync());
    } catch (e) {
      setProbarResult({
        ok: false,
        mensaje: errorMessage(e, 'No se pudo probar la conexión.'),
        detalle: null,
        codigo: 'arca_error',
        espera_hasta: null,
      });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Configuración fiscal">
      {status && <StatusNote onClose={() => setStatus(null)}>{status}</StatusNote>}
      <Card>
        <h2 className="text-base font-semibold text-slate-900">Datos fiscales</h2>
        <p className="mt-1 text-sm text-slate-500">
          Salen impresos en cada factura. Tienen que coincidir con los de ARCA.
        </p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field id="fc-cuit" label="CUIT" required error={err.cuit?.message} hint="11 dígitos, con o sin guiones.">
            <Input
              id="fc-cuit"
              inputMode="numeric"
              autoComplete="off"
              aria-invalid={Boolean(err.cuit)}
              {...register('cuit')}
            />
          </Field>
          <Field id="fc-razon" label="Razón social" required error={err.razon_social?.message}>
            <Input id="fc-razon" aria-invalid={Boolean(err.razon_social)} {...register('razon_social')} />
          </Field>
          <Field id="fc-condicion" label="Condición frente al IVA" required error={err.condicion_iva?.message}>
            <Select id="fc-condicion" {...register('condicion_iva')}>
              {CONDICIONES_IVA_EMISOR.map((c) => (
                <option key={c} value={c}>
                  {CONDICION_IVA_EMISOR_LABELS[c]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="fc-inicio" label="Inicio de actividades" error={err.inicio_actividades?.message}>
            <Input id="fc-inicio" type="date" {...register('inicio_actividades')} />
          </Field>
          <Field id="fc-iibb" label="Ingresos Brutos (N.º)" error={err.iibb?.message}>
            <Input id="fc-iibb" {...register('iibb')} />
          </Field>
          <Field id="fc-domicilio" label="Domicilio fiscal" error={err.domicilio_fiscal?.message}>
            <Input id="fc-domicilio" {...register('domicilio_fiscal')} />
          </Field>
        </div>
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">Puntos de venta y emisión</h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field
            id="fc-pv"
            label="Punto de venta principal"
            required
            error={err.punto_venta?.message}
            hint="El número que diste de alta en ARCA para «Factura electrónica - Web services»."
          >
            <Input
              id="fc-pv"
              inputMode="numeric"
              aria-invalid={Boolean(err.punto_venta)}
              {...register('punto_venta')}
            />
          </Field>
          <Field
            id="fc-pvs"
            label="Todos los puntos de venta"
            error={err.puntos_venta?.message}
            hint="Separados por comas (por ejemplo: 1, 2). El principal se agrega solo."
          >
            <Input id="fc-pvs" inputMode="numeric" {...register('puntos_venta')} />
          </Field>
          <Field
            id="fc-entorno"
            label="Entorno"
            error={err.entorno?.message}
            hint="Probá en homologación antes de pasar a producción."
          >
            <Select id="fc-entorno" {...register('entorno')}>
              {ENTORNOS.map((e) => (
                <option key={e} value={e}>
                  {ENTORNO_LABELS[e]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="fc-facturar" label="En el punto de venta" error={err.facturar?.message}>
            <Select id="fc-facturar" {...register('facturar')}>
              {FACTURAR_MODOS.map((m) => (
                <option key={m} value={m}>
                  {FACTURAR_MODO_LABELS[m]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </Card>

      <Card>
        <h2 className="text-base font-semibold text-slate-900">Contingencia CAEA</h2>
        <p className="mt-1 text-sm text-slate-500">
          Si ARCA no responde, las ventas se facturan con el CAEA de la quincena (Mostrador lo pide por adelantado) en
          un punto de venta habilitado para CAEA, y se informan a ARCA cuando vuelve. Dejalo vacío para no usarla.
        </p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field
            id="fc-caea-pv"
            label="Punto de venta de CAEA"
            error={err.caea_punto_venta?.message}
            hint="Dado de alta en ARCA como «CAEA - Web services», distinto de los de CAE."
          >
            <Input
              id="fc-caea-pv"
              inputMode="numeric"
              aria-invalid={Boolean(err.caea_punto_venta)}
              {...register('caea_punto_venta')}
            />
          </Field>
          <Field
            id="fc-caea-min"
            label="Pasar a CAEA después de (minutos sin respuesta de ARCA)"
            error={err.caea_tras_minutos?.message}
            hint="Mientras tanto, las facturas quedan pendientes y se reintentan solas."
          >
            <Input
              id="fc-caea-min"
              inputMode="numeric"
              aria-invalid={Boolean(err.caea_tras_minutos)}
              {...register('caea_tras_minutos')}
            />
          </Field>
        </div>
      </Card>

      <Card>
        <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <ShieldCheck className="h-5 w-5 text-slate-500" aria-hidden /> Certificado de ARCA
        </h2>
        <ul className="mt-3 space-y-1 text-sm" aria-label="Estado del certificado" data-testid="cert-state">
          <li className="flex items-center gap-2">
            {config.tiene_clave ? (
              <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
            ) : (
              <XCircle className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
            )}
            {config.tiene_clave ? 'Clave privada cargada' : 'Sin clave privada'}
          </li>
          <li className="flex items-center gap-2">
            {config.tiene_certificado ? (
              <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
            ) : (
              <XCircle className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
            )}
            {config.tiene_certificado
              ? `Certificado cargado${config.certificado_cuit ? ` · CUIT ${config.certificado_cuit}` : ''}${config.certificado_vence ? ` · vence el ${formatDate(config.certificado_vence, formatting)}` : ''}`
              : 'Sin certificado'}
          </li>
        </ul>

        <div className="mt-5 grid gap-5 lg:grid-cols-2">
          <section aria-labelledby="csr-title" className="rounded-lg border border-slate-200 p-4">
            <h3 id="csr-title" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
              <KeyRound className="h-4 w-4" aria-hidden /> Opción 1: generar la clave y el pedido acá
            </h3>
            <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-600">
              <li>Tocá «Generar pedido (CSR)»: Mostrador crea y guarda la clave privada y descarga el archivo .csr.</li>
              <li>
                Entrá a ARCA con tu clave fiscal → «Administración de certificados digitales» (o «WSASS» para
                homologación), agregá un alias y subí el archivo .csr.
              </li>
              <li>
                Descargá el certificado (.crt) que te da ARCA y, en «Administrador de relaciones», asocialo al servicio
                «Facturación electrónica» (wsfe).
              </li>
              <li>Cargá ese .crt en «Certificado de ARCA» y guardá la configuración.</li>
            </ol>
            <div className="mt-3 flex flex-wrap items-end gap-2">
              <Field id="fc-alias" label="Alias del certificado">
                <Input id="fc-alias" value={alias} onChange={(e) => setAlias(e.target.value)} className="w-44" />
              </Field>
              <Button variant="secondary" onClick={() => void generateCsr()} loading={csr.isPending}>
                <Download className="h-4 w-4" aria-hidden /> Generar pedido (CSR)
              </Button>
            </div>
            {config.tiene_clave && (
              <p className="mt-2 text-xs text-amber-700">
                Generar un pedido nuevo reemplaza la clave privada guardada.
              </p>
            )}
            {csrError && (
              <p role="alert" className="mt-2 text-sm text-red-700">
                {csrError}
              </p>
            )}
            {csrResult && (
              <div role="status" className="mt-2 rounded-md bg-emerald-50 p-2 text-sm text-emerald-800">
                <p>{csrResult.mensaje}</p>
                <button
                  type="button"
                  className="mt-1 font-medium underline"
                  onClick={() => downloadCsr(csrResult.pem, alias)}
                >
                  Descargar el .csr otra vez
                </button>
              </div>
            )}
          </section>

          <section aria-labelledby="upload-title" className="rounded-lg border border-slate-200 p-4">
            <h3 id="upload-title" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
              <FileKey2 className="h-4 w-4" aria-hidden /> Opción 2: cargar el certificado (y la clave, si ya la tenés)
            </h3>
            <div className="mt-3 space-y-3">
              <Field
                id="fc-cert"
                label="Certificado de ARCA (.crt o .pem)"
                hint={cert ? `Elegido: ${cert.name}` : undefined}
              >
                <Input
                  key={`cert-${fileKey}`}
                  id="fc-cert"
                  type="file"
                  accept=".crt,.pem,.cer,.txt"
                  className="h-auto py-1.5"
                  onChange={async (e) => {
                    setPemError(null);
                    const f = await readPem(e);
                    if (f && !f.text.includes('-----BEGIN CERTIFICATE-----')) {
                      setPemError(
                        'El archivo no es un certificado PEM (tiene que empezar con «-----BEGIN CERTIFICATE-----»).',
                      );
                      setCert(null);
                      return;
                    }
                    setCert(f);
                  }}
                />
              </Field>
              <Field
                id="fc-key"
                label="Clave privada (.key o .pem), solo si no la generaste acá"
                hint={key ? `Elegida: ${key.name}` : 'Se guarda cifrada y no se vuelve a mostrar.'}
              >
                <Input
                  key={`key-${fileKey}`}
                  id="fc-key"
                  type="file"
                  accept=".key,.pem,.txt"
                  className="h-auto py-1.5"
                  onChange={async (e) => {
                    setPemError(null);
                    const f = await readPem(e);
                    if (f && !/-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(f.text)) {
                      setPemError(
                        'El archivo no es una clave privada PEM (tiene que empezar con «-----BEGIN PRIVATE KEY-----»).',
                      );
                      setKey(null);
                      return;
                    }
                    setKey(f);
                  }}
                />
              </Field>
              {pemError && (
                <p role="alert" className="text-sm text-red-700">
                  {pemError}
                </p>
              )}
              {(cert || key) && <p className="text-sm text-slate-600">Se cargan al guardar la configuración.</p>}
            </div>
          </section>
        </div>
      </Card>

      {formError && <ErrorNote>{formError}</ErrorNote>}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <Button
            variant="secondary"
            onClick={() => void runProbar()}
            loading={probar.isPending}
            disabled={!config.configurado || formState.isDirty}
            title={formState.isDirty ? 'Guardá los cambios antes de probar.' : undefined}
          >
            <PlugZap className="h-4 w-4" aria-hidden /> Probar conexión
          </Button>
          {probarResult && (
            <div
              role={probarResult.ok ? 'status' : 'alert'}
              data-testid="probar-result"
              data-codigo={probarResult.codigo}
              className={
                probarResult.ok
                  ? 'mt-2 rounded-md bg-emerald-50 p-2 text-sm text-emerald-800'
                  : 'mt-2 rounded-md bg-red-50 p-2 text-sm text-red-800'
              }
            >
              <p className="font-medium">{probarResult.mensaje}</p>
              {probarResult.detalle && <p className="mt-1 break-words text-xs">{probarResult.detalle}</p>}
            </div>
          )}
          {!config.configurado && (
            <p className="mt-1 text-xs text-slate-500">
              Guardá los datos y el certificado para poder probar la conexión.
            </p>
          )}
        </div>
        <Button type="submit" loading={formState.isSubmitting}>
          Guardar configuración
        </Button>
      </div>
    </form>
  );
}

function downloadCsr(pem: string, alias: string) {
  const url = URL.createObjectURL(new Blob([pem], { type: 'application/pkcs10' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${alias || 'mostrador'}.csr`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
