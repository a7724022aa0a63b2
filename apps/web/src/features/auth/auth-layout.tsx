import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <a href="/" className="mb-6 flex items-center gap-2">
        <img src="/favicon.svg" alt="" className="h-9 w-9" />
        <span className="text-xl font-bold text-slate-900">Mostrador</span>
      </a>
      <main className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </main>
      {footer && <div className="mt-6 text-sm text-slate-600">{footer}</div>}
      <p className="mt-8 text-xs text-slate-400">
        <a href="/terminos" className="hover:underline">
          Términos
        </a>{' '}
        ·{' '}
        <a href="/politicas" className="hover:underline">
          Privacidad
        </a>{' '}
        ·{' '}
        <Link to="/" className="hover:underline">
          Inicio
        </Link>
      </p>
    </div>
  );
}

export function Notice({ tone = 'info', children }: { tone?: 'info' | 'success' | 'error'; children: ReactNode }) {
  const cls = {
    info: 'border-blue-200 bg-blue-50 text-blue-800',
    success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
    error: 'border-red-200 bg-red-50 text-red-700',
  }[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border p-3 text-sm ${cls}`}>
      {children}
    </div>
  );
}
