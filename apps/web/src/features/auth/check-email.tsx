import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api';
import { AuthLayout, Notice } from './auth-layout';

interface Props {
  sent: { message: string; email: string; credentials: { email: string; password: string } };
  /** Logs in with the credentials just typed; fails with 403 while the e-mail is unconfirmed. */
  enter: (credentials: { email: string; password: string }) => Promise<void>;
}

/**
 * After signing up where the e-mail must be confirmed: the account cannot log in yet. Once the
 * link is opened, «Ya confirmé mi e-mail» logs in from here without typing the password again.
 */
export function CheckEmail({ sent, enter }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tryEnter = async () => {
    setError(null);
    setBusy(true);
    try {
      await enter(sent.credentials);
    } catch (e) {
      const detail = e instanceof ApiError ? (e.detail as { error_type?: string; message?: string } | null) : null;
      setError(
        detail && typeof detail === 'object' && detail.error_type === 'email_not_confirmed'
          ? 'Todavía no confirmaste tu e-mail. Abrí el enlace que te enviamos y volvé a intentar.'
          : errorMessage(e, 'No se pudo iniciar sesión.'),
      );
      setBusy(false);
    }
  };
  return (
    <AuthLayout title="Revisá tu correo">
      <Notice tone="success">{sent.message}</Notice>
      <p className="mt-4 text-sm text-slate-600">
        Enviamos el enlace a <strong>{sent.email}</strong>. Abrilo para activar tu cuenta y después volvé a esta página.
      </p>
      {error && (
        <div className="mt-4">
          <Notice tone="error">{error}</Notice>
        </div>
      )}
      <Button type="button" className="mt-6 w-full" loading={busy} onClick={tryEnter}>
        Ya confirmé mi e-mail
      </Button>
      <Link to="/login" className="mt-4 inline-block text-sm font-medium text-blue-600 hover:underline">
        Ir a iniciar sesión
      </Link>
    </AuthLayout>
  );
}
