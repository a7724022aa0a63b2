import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/ui/misc';
import { ImportWizardDialog } from '@/features/imports/import-wizard';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { ListasTab } from '@/features/precios/listas-tab';
import { ServicesTab } from '@/features/services/services-tab';
import { SubscriptionsTab } from '@/features/subscriptions/subscriptions-tab';
import { Tabs } from './inventory-ui';
import { ProductsTab } from './products-tab';

type Tab = 'productos' | 'listas' | 'servicios' | 'suscripciones';
const TABS: { value: Tab; label: string }[] = [
  { value: 'productos', label: 'Productos' },
  { value: 'listas', label: 'Listas de precios' },
  { value: 'servicios', label: 'Servicios' },
  { value: 'suscripciones', label: 'Suscripciones' },
];

function ProductsAndServices() {
  const [params, setParams] = useSearchParams();
  const tab = (TABS.find((t) => t.value === params.get('tab'))?.value ?? 'productos') as Tab;
  // The dashboard's "Importar" quick action opens the wizard with ?importar=1.
  const canEdit = useCan()('productos', 'editar');
  const importing = params.get('importar') === '1' && canEdit;
  const update = (patch: Record<string, string | null>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );

  return (
    <div>
      <PageHeader
        title="Productos y servicios"
        description="Tu catálogo: precios, stock, servicios y suscripciones de clientes."
      />
      <Tabs label="Catálogo" tabs={TABS} value={tab} onChange={(v) => update({ tab: v === 'productos' ? null : v })} />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'productos' && <ProductsTab onImport={() => update({ importar: '1' })} />}
        {tab === 'listas' && <ListasTab />}
        {tab === 'servicios' && <ServicesTab />}
        {tab === 'suscripciones' && <SubscriptionsTab />}
      </div>
      <ImportWizardDialog open={importing} onClose={() => update({ importar: null })} />
    </div>
  );
}

/** /products-and-services and /business/{id}/products-and-services (SPEC §2), gated by `productos`. */
export default function ProductsPage() {
  return (
    <PermissionGate modulo="productos">
      <ProductsAndServices />
    </PermissionGate>
  );
}
