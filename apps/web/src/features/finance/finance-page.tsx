import { NavLink, Navigate, Route, Routes } from 'react-router';
import { cn } from '@/lib/cn';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { AccountsPage } from './accounts-page';
import { ConciliacionPage } from '@/features/mercadopago/conciliacion-page';
import { CashFlowPage } from './cash-flow-page';
import { ChequesPage } from '@/features/cheques/cheques-page';
import { CategoriesPage } from './categories-page';
import { MovementsPage } from './movements-page';
import { SummaryPage } from './summary-page';

const SECTIONS = [
  { to: '/finanzas', label: 'Resumen', end: true },
  { to: '/finanzas/movimientos', label: 'Movimientos' },
  { to: '/finanzas/categorias', label: 'Categorías' },
  { to: '/finanzas/cuentas', label: 'Cuentas Pendientes' },
  { to: '/finanzas/cheques', label: 'Cheques' },
  { to: '/finanzas/flujo-caja', label: 'Flujo de Caja' },
  { to: '/finanzas/mercadopago', label: 'Mercado Pago' },
];

/** The sub-navigation; on narrow screens the tabs wrap, so every one stays in view. */
function FinanceNav() {
  return (
    <nav aria-label="Secciones de finanzas" className="mb-6">
      <ul className="flex flex-wrap gap-1 rounded-xl border border-slate-200 bg-white p-1 shadow-sm">
        {SECTIONS.map((s) => (
          <li key={s.to}>
            <NavLink
              to={s.to}
              end={s.end}
              className={({ isActive }) =>
                cn(
                  'block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
                  isActive ? 'bg-blue-600 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                )
              }
            >
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The finance area (SPEC §2): one URL per screen under /finanzas, with a sub-navigation. */
export default function FinancePage() {
  return (
    <PermissionGate modulo="finanzas">
      <FinanceNav />
      <Routes>
        <Route index element={<SummaryPage />} />
        <Route path="movimientos" element={<MovementsPage />} />
        <Route path="categorias" element={<CategoriesPage />} />
        <Route path="cuentas" element={<AccountsPage />} />
        <Route path="cheques" element={<ChequesPage />} />
        <Route path="flujo-caja" element={<CashFlowPage />} />
        <Route path="mercadopago" element={<ConciliacionPage />} />
        <Route path="*" element={<Navigate to="/finanzas" replace />} />
      </Routes>
    </PermissionGate>
  );
}
