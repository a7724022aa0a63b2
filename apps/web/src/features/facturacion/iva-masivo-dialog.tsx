import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_IVA_RATE, type IvaMasivoInput } from '@mostrador/shared/facturacion';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { useCategories } from '@/features/categories/categories.api';
import { api, errorMessage } from '@/lib/api';
import { plural } from '@/lib/format';
import { IvaSelect } from './iva-select';

function useIvaMasivo() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: IvaMasivoInput) =>
      api.post<{ productos: number; servicios: number }>(`/businesses/${b}/facturacion/iva-masivo`, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['inventory', b] }),
  });
}

/** The IVA rate of every product and service of a category at once (POST facturacion/iva-masivo). */
export function IvaMasivoDialog({ open, onClose }: { open: boolean; onClose: (message?: string) => void }) {
  const { formatting } = useBusiness();
  const categories = useCategories();
  const run = useIvaMasivo();
  const [categoria, setCategoria] = useState('');
  const [iva, setIva] = useState<string>(DEFAULT_IVA_RATE);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Cambiar la alícuota de IVA"
      description="Todos los productos y servicios de la categoría pasan a la alícuota elegida."
    >
      <form
        className="space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          if (!categoria) {
            setError('Elegí la categoría.');
            return;
          }
          try {
            const r = await run.mutateAsync({ iva: iva as IvaMasivoInput['iva'], categoria_id: categoria });
            onClose(
              `IVA actualizado: ${r.productos} ${plural(r.productos, 'producto', 'productos', formatting.locale)} y ${r.servicios} ${plural(r.servicios, 'servicio', 'servicios', formatting.locale)}.`,
            );
          } catch (err) {
            setError(errorMessage(err, 'No se pudo cambiar la alícuota.'));
          }
        }}
      >
        <Field id="iva-masivo-cat" label="Categoría" required>
          <Select id="iva-masivo-cat" value={categoria} onChange={(e) => setCategoria(e.target.value)}>
            <option value="">Elegí una categoría</option>
            {(categories.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.nombre}
              </option>
            ))}
          </Select>
        </Field>
        <IvaSelect id="iva-masivo-iva" value={iva} onChange={(e) => setIva(e.target.value)} />
        {error && <ErrorNote>{error}</ErrorNote>}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => onClose()}>
            Cancelar
          </Button>
          <Button type="submit" loading={run.isPending}>
            Cambiar IVA
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
