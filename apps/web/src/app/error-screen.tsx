import { useNavigate } from 'react-router';

/** The generic crash screen (SPEC §2, §8). Plain markup: it must render even if the app failed to load. */
export function ErrorScreen({ onRetry }: { onRetry?: () => void }) {
  const navigate = useNavigate();
  return (
    <div role="alert" className="flex min-h-[60vh] flex-col items-center justify-center px-6 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Algo salió mal</h1>
      <p className="mt-2 max-w-md text-slate-600">
        Ha ocurrido un error inesperado. Por favor, recargá la página o intentá nuevamente.
      </p>
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          className="h-10 rounded-lg bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700"
          onClick={() => window.location.reload()}
        >
          Recargar página
        </button>
        <button
          type="button"
          className="h-10 rounded-lg bg-white px-4 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
          onClick={() => (onRetry ? onRetry() : navigate(0))}
        >
          Intentar nuevamente
        </button>
      </div>
    </div>
  );
}
