import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ACTION_TITLES, can, MODULE_LABELS, type Accion, type Modulo } from '@mostrador/shared/permission-rules';
import { useBusiness } from '@/app/business-context';
import { useIsAdmin, usePermissions } from './permissions.api';

/** The permission gate page (SPEC §2): loading, no business, restricted, or the content. */
export function PermissionGate({
  modulo,
  accion = 'ver',
  children,
}: {
  modulo: string;
  accion?: string;
  children: ReactNode;
}) {
  const { businessId, isLoading: loadingBusinesses } = useBusiness();
  const perms = usePermissions();
  if (loadingBusinesses || (businessId && perms.isLoading)) {
    return (
      <div className="flex min-h-[40vh] items-center justify-center gap-3 text-slate-600" role="status">
        <span className="h-5 w-5 animate-spin rounded-full border-2 border-blue-600 border-t-transparent" aria-hidden />
        Verificando permisos...
      </div>
    );
  }
  if (!businessId) {
    return (
      <div className="flex min-h-[40vh] flex-col items-center justify-center text-center">
        <h2 className="text-lg font-semibold text-slate-800">No hay negocio seleccionado</h2>
        <p className="mt-1 text-sm text-slate-500">Elegí un negocio en la barra superior o creá uno nuevo.</p>
      </div>
    );
  }
  if (!can(perms.data, modulo, accion)) {
    return (
      <Restricted>
        Permiso requerido: <strong>{ACTION_TITLES[accion as Accion] ?? 'Ver'}</strong> en el módulo{' '}
        <strong>{MODULE_LABELS[modulo as Modulo] ?? modulo}</strong>
      </Restricted>
    );
  }
  return <>{children}</>;
}

/** A page for the business's administrators only (the server refuses the others anyway). */
export function AdminGate({ children }: { children: ReactNode }) {
  const perms = usePermissions();
  const admin = useIsAdmin();
  // Loading and "no business" look like every other gate.
  if (!perms.data) return <PermissionGate modulo="ventas">{children}</PermissionGate>;
  if (admin) return <>{children}</>;
  return (
    <Restricted>
      Permiso requerido: <strong>Administrador</strong> del negocio
    </Restricted>
  );
}

function Restricted({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center px-4 text-center">
      <ShieldAlert className="h-12 w-12 text-red-500" aria-hidden />
      <h2 className="mt-4 text-xl font-semibold text-slate-900">Acceso Restringido</h2>
      <p className="mt-2 text-slate-600">No tenés permisos para acceder a esta página</p>
      <p className="mt-3 text-sm text-slate-500">{children}</p>
      <p className="mt-1 text-sm text-slate-500">Contactá al administrador del negocio para solicitar acceso.</p>
      <Link
        to="/home"
        className="mt-6 inline-flex h-10 items-center rounded-lg bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700"
      >
        Volver al inicio
      </Link>
    </div>
  );
}
