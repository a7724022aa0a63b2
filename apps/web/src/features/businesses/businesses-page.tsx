import { Building2, Check, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Business } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Badge, Card, EmptyState, PageHeader, Skeleton } from '@/components/ui/misc';
import { TeamSection } from '@/features/team/team-section';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { useDeleteBusiness } from './businesses.api';
import { CreateBusinessDialog } from './create-business-dialog';

export default function BusinessesPage() {
  const { businesses, business, businessId, select, isLoading, formatting } = useBusiness();
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Business | null>(null);
  const del = useDeleteBusiness();

  return (
    <div>
      <PageHeader
        title="Negocios"
        description="Los negocios en los que trabajás. Elegí cuál usar o creá uno nuevo."
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus className="h-4 w-4" aria-hidden /> Nuevo negocio
          </Button>
        }
      />
      {isLoading ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-32" />
          <Skeleton className="h-32" />
        </div>
      ) : businesses.length === 0 ? (
        <EmptyState icon={<Building2 className="h-10 w-10" />} title="Todavía no tenés negocios" />
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {businesses.map((b) => (
            <li key={b.id}>
              <Card className={b.id === businessId ? 'ring-2 ring-blue-500' : ''}>
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
                  <div className="min-w-0">
                    <h2 className="font-semibold break-words text-slate-900">{b.nombre}</h2>
                    <p className="text-sm text-slate-500">{b.tipo ?? 'Sin tipo'}</p>
                  </div>
                  <div className="flex shrink-0 gap-1">
                    {b.es_creador && <Badge color="purple">Creador</Badge>}
                    <Badge color={b.rol === 'admin' ? 'blue' : 'gray'}>
                      {b.rol === 'admin' ? 'Administrador' : 'Empleado'}
                    </Badge>
                  </div>
                </div>
                {b.descripcion && <p className="mt-2 text-sm text-slate-600">{b.descripcion}</p>}
                <p className="mt-2 text-xs text-slate-400">
                  {b.cuit ? `CUIT ${b.cuit} · ` : ''}Creado el {formatDate(b.creada_en, formatting)}
                </p>
                <div className="mt-4 flex flex-wrap gap-2">
                  {b.id === businessId ? (
                    <span className="inline-flex items-center gap-1 text-sm font-medium text-blue-700">
                      <Check className="h-4 w-4" aria-hidden /> Negocio activo
                    </span>
                  ) : (
                    <Button size="sm" variant="secondary" onClick={() => select(b.id)}>
                      Usar este negocio
                    </Button>
                  )}
                  {b.es_creador && (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="ml-auto text-red-600 hover:bg-red-50"
                      onClick={() => setToDelete(b)}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden /> Eliminar
                    </Button>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {business && (business.rol === 'admin' || business.es_creador) && <TeamSection business={business} />}
      <CreateBusinessDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={Boolean(toDelete)}
        onOpenChange={(o) => !o && setToDelete(null)}
        title="Eliminar negocio"
        message={`¿Estás seguro de que querés eliminar el negocio «${toDelete?.nombre ?? ''}»? Se borrarán todos sus datos y no se puede deshacer.`}
        onConfirm={async () => {
          if (!toDelete) return;
          try {
            await del.mutateAsync(toDelete.id);
          } catch (e) {
            throw new Error(errorMessage(e), { cause: e });
          }
          if (toDelete.id === businessId) select(null);
        }}
      />
    </div>
  );
}
