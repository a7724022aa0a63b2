import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, errorMessage } from '@/lib/api';
import { AuthLayout, Notice } from './auth-layout';

/** Opens the link of the confirmation e-mail: /confirm?token=… */
export default function ConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<{ ok: boolean; message: string } | null>(() =>
    token ? null : { ok: false, message: 'El enlace de confirmación no es válido o expiró. Solicitá uno nuevo.' },
  );
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    api
      .get<{ message: string; status: string }>(`/auth/activate/${encodeURIComponent(token)}`)
      .then((r) => setState({ ok: true, message: r.message }))
      .catch((e) => setState({ ok: false, message: errorMessage(e) }));
  }, [token]);

  return (
    <AuthLayout title="Confirmación de e-mail">
      {!state && (
        <p role="status" className="text-sm text-slate-600">
          Confirmando tu e-mail…
        </p>
      )}
      {state && <Notice tone={state.ok ? 'success' : 'error'}>{state.message}</Notice>}
      {state && (
        <Link to="/login" className="mt-6 inline-block text-sm font-medium text-blue-600 hover:underline">
          Ir a iniciar sesión
        </Link>
      )}
    </AuthLayout>
  );
}
