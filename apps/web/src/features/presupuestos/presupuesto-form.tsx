import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Customer } from '@mostrador/shared/customers';
import { PRESUPUESTO_VALIDEZ_DEFAULT, type Presupuesto } from '@mostrador/shared/presupuestos';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Textarea } from '@/components/ui/input';
import { Card, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { api, errorMessage } from '@/lib/api';
import { parseDecimal } from '@/lib/decimal';
import { formatMoney } from '@/lib/format';
import { CustomerPicker } from '../pos/customer-picker';
import { useCan } from '../permissions/permissions.api';
import { importeLinea, LineasEditor, lineasBody, milesimas, type LineaDraft } from './lineas-editor';
import { usePresupuesto, useSavePresupuesto } from './presupuestos.api';

/** The lines of a saved presupuesto, to edit (their quoted list price stands for the item's price). */
const draftsOf = (p: Presupuesto): LineaDraft[] =>
  p.items.map((i) => ({
    key: `e${i.posicion}`,
    item: {
      id: (i.producto_id ?? i.servicio_id)!,
      tipo: i.tipo,
      nombre: i.nombre,
      codigo: null,
      codigo_barras: null,
      precio: Math.round(i.precio_lista * 100),
      stock: null,
      unidad: '',
    },
    cantidad: String(i.cantidad).replace('.', ','),
    descuento: i.descuento ? String(i.descuento).replace('.', ',') : '',
  }));

export function PresupuestoFormPage() {
  const { id } = useParams();
  const existing = usePresupuesto(id);
  if (id && !existing.data) {
    return existing.error ? <ErrorNote>{errorMessage(existing.error)}</ErrorNote> : <Skeleton className="h-64" />;
  }
  return <PresupuestoForm presupuesto={existing.data} />;
}

function PresupuestoForm({ presupuesto }: { presupuesto?: Presupuesto }) {
  const { businessId, formatting } = useBusiness();
  const navigate = useNavigate();
  const can = useCan();
  const save = useSavePresupuesto(presupuesto?.id);
  const [cliente, setCliente] = useState<Customer | null>(null);
  const [clienteTexto, setClienteTexto] = useState('');
  const [lineas, setLineas] = useState<LineaDraft[]>(() => (presupuesto ? draftsOf(presupuesto) : []));
  const [descuento, setDescuento] = useState(
    presupuesto?.descuento ? String(presupuesto.descuento).replace('.', ',') : '',
  );
  const [validez, setValidez] = useState(String(presupuesto?.validez_dias ?? PRESUPUESTO_VALIDEZ_DEFAULT));
  const [notas, setNotas] = useState(presupuesto?.notas ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (presupuesto && businessId) {
      void api.get<Customer>(`/businesses/${businessId}/clientes/${presupuesto.cliente_id}`).then(setCliente, () => {});
    }
  }, [presupuesto, businessId]);

  // Lines of a saved presupuesto already carry its customer's list price.
  const listaId = presupuesto ? null : (cliente?.lista_precios_id ?? null);
  const subtotal = lineas.reduce((s, l) => s + importeLinea(l, listaId), 0);
  const descuentoCents = parseDecimal(descuento, 2) ?? 0;
  const total = Math.max(0, subtotal - descuentoCents);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!cliente) errs.cliente_id = 'Elegí un cliente.';
    if (!lineas.length) errs.items = 'Agregá al menos un producto o servicio.';
    if (lineas.some((l) => milesimas(l) <= 0)) errs.items = 'Revisá las cantidades: deben ser mayores a 0.';
    if (descuento && parseDecimal(descuento, 2) === null) errs.descuento = 'Monto no válido. Usá el formato 1.234,50.';
    const dias = Number(validez);
    if (!Number.isInteger(dias) || dias < 1 || dias > 365) errs.validez_dias = 'La validez va de 1 a 365 días.';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      const saved = await save.mutateAsync({
        cliente_id: cliente!.id,
        items: lineasBody(lineas),
        descuento: descuentoCents / 100,
        validez_dias: dias,
        notas: notas.trim() || null,
      });
      navigate(`/presupuestos/${saved.id}`);
    } catch {
      // The error shows below.
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Link
        to="/presupuestos"
        className="mb-3 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-blue-700"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden /> Presupuestos
      </Link>
      <PageHeader
        title={presupuesto ? `Editar presupuesto #${presupuesto.numero}` : 'Nuevo presupuesto'}
        description="Los precios salen de la lista de precios del cliente, como en el punto de venta."
      />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card className="min-w-0 space-y-4">
          <div>
            <CustomerPicker
              obligatorio
              value={cliente}
              onChange={setCliente}
              text={clienteTexto}
              onTextChange={setClienteTexto}
              canView={can('clientes', 'ver')}
              canCreate={can('clientes', 'editar')}
            />
            {errors.cliente_id && (
              <p role="alert" className="mt-1 text-xs text-red-600">
                {errors.cliente_id}
              </p>
            )}
          </div>
          <LineasEditor lineas={lineas} onChange={setLineas} listaId={listaId} error={errors.items} />
        </Card>
        <Card className="min-w-0 space-y-4 self-start">
          <Field id="presu-descuento" label="Descuento total ($)" error={errors.descuento}>
            <Input
              id="presu-descuento"
              inputMode="decimal"
              placeholder="0"
              value={descuento}
              onChange={(e) => setDescuento(e.target.value)}
            />
          </Field>
          <Field
            id="presu-validez"
            label="Validez (días)"
            required
            error={errors.validez_dias}
            hint="Vence a los días indicados desde hoy."
          >
            <Input
              id="presu-validez"
              inputMode="numeric"
              value={validez}
              onChange={(e) => setValidez(e.target.value)}
            />
          </Field>
          <Field id="presu-notas" label="Notas">
            <Textarea id="presu-notas" rows={3} value={notas} onChange={(e) => setNotas(e.target.value)} />
          </Field>
          <dl className="space-y-1 border-t border-slate-200 pt-3 text-sm">
            <div className="flex justify-between text-slate-600">
              <dt>Subtotal</dt>
              <dd className="tabular-nums">{formatMoney(subtotal / 100, formatting)}</dd>
            </div>
            {descuentoCents > 0 && (
              <div className="flex justify-between text-slate-600">
                <dt>Descuento</dt>
                <dd className="tabular-nums">−{formatMoney(descuentoCents / 100, formatting)}</dd>
              </div>
            )}
            <div className="flex justify-between text-lg font-semibold text-slate-900">
              <dt>Total</dt>
              <dd className="tabular-nums" data-testid="presupuesto-total">
                {formatMoney(total / 100, formatting)}
              </dd>
            </div>
          </dl>
          {save.error && <ErrorNote>{errorMessage(save.error, 'No se pudo guardar el presupuesto.')}</ErrorNote>}
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              onClick={() => navigate(presupuesto ? `/presupuestos/${presupuesto.id}` : '/presupuestos')}
            >
              Cancelar
            </Button>
            <Button type="submit" loading={save.isPending}>
              {presupuesto ? 'Guardar cambios' : 'Guardar presupuesto'}
            </Button>
          </div>
        </Card>
      </div>
    </form>
  );
}
