import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Customer } from '@mostrador/shared/customers';
import { Button } from '@/components/ui/button';
import { Field, Textarea } from '@/components/ui/input';
import { Card, ErrorNote, PageHeader } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { CustomerPicker } from '../pos/customer-picker';
import { useCan } from '../permissions/permissions.api';
import { LineasEditor, lineasBody, milesimas, type LineaDraft } from '../presupuestos/lineas-editor';
import { useCrearRemito } from './remitos.api';

/** A remito: the goods delivered to a customer leave the stock now; it is invoiced later. */
export function RemitoFormPage() {
  const navigate = useNavigate();
  const can = useCan();
  const crear = useCrearRemito();
  const [cliente, setCliente] = useState<Customer | null>(null);
  const [texto, setTexto] = useState('');
  const [lineas, setLineas] = useState<LineaDraft[]>([]);
  const [notas, setNotas] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!cliente) errs.cliente_id = 'Elegí el cliente que recibe la mercadería.';
    if (!lineas.length) errs.items = 'Agregá al menos un producto.';
    if (lineas.some((l) => milesimas(l) <= 0)) errs.items = 'Revisá las cantidades: deben ser mayores a 0.';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      const r = await crear.mutateAsync({
        cliente_id: cliente!.id,
        items: lineasBody(lineas),
        notas: notas.trim() || null,
      });
      navigate(`/remitos/${r.id}`);
    } catch {
      // Shown below.
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Link to="/remitos" className="mb-3 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-blue-700">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Remitos
      </Link>
      <PageHeader
        title="Nuevo remito"
        description="La mercadería sale del stock al registrar la entrega; la facturás después."
      />
      <Card className="space-y-4">
        <div>
          <CustomerPicker
            obligatorio
            value={cliente}
            onChange={setCliente}
            text={texto}
            onTextChange={setTexto}
            canView={can('clientes', 'ver')}
            canCreate={can('clientes', 'editar')}
          />
          {errors.cliente_id && (
            <p role="alert" className="mt-1 text-xs text-red-600">
              {errors.cliente_id}
            </p>
          )}
        </div>
        <LineasEditor
          lineas={lineas}
          onChange={setLineas}
          listaId={cliente?.lista_precios_id ?? null}
          error={errors.items}
        />
        <Field id="remito-notas" label="Notas (dirección de entrega, transporte…)">
          <Textarea id="remito-notas" rows={2} value={notas} onChange={(e) => setNotas(e.target.value)} />
        </Field>
        {crear.error && <ErrorNote>{errorMessage(crear.error, 'No se pudo registrar el remito.')}</ErrorNote>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => navigate('/remitos')}>
            Cancelar
          </Button>
          <Button type="submit" loading={crear.isPending}>
            Registrar la entrega
          </Button>
        </div>
      </Card>
    </form>
  );
}
