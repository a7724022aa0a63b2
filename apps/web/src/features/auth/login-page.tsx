import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { api, ApiError, errorMessage, request } from '@/lib/api';
import { session } from '@/lib/session';
import type { LoginResponse } from '@mostrador/shared';
import { AuthLayout, Notice } from './auth-layout';

const schema = z.object({
  username: z.string().trim().min(1, 'Ingresá tu e-mail.').email('El e-mail no es válido.'),
  password: z.string().min(1, 'Ingresá tu contraseña.'),
});
type Form = z.infer<typeof schema>;

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  // Back to where the user was going (an invitation link, say); only paths of this site.
  const nextParam = params.get('next');
  const next = nextParam && nextParam.startsWith('/') && !nextParam.startsWith('//') ? nextParam : '/home';
  const flash = (location.state as { message?: string } | null)?.message;
  const [error, setError] = useState<string | null>(null);
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  // An invitation's page sends its e-mail along (?email=), so the form comes filled.
  const { register, handleSubmit, formState } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: { username: params.get('email') ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    setUnconfirmed(null);
    try {
      const { data } = await request<LoginResponse>('/auth/login', {
        method: 'POST',
        form: values,
        skipAuthRedirect: true,
      });
      session.save(data.access_token, data.user);
      navigate(next, { replace: true });
    } catch (e) {
      const detail =
        e instanceof ApiError ? (e.detail as { error_type?: string; message?: string; email?: string }) : null;
      if (detail && typeof detail === 'object' && detail.error_type === 'email_not_confirmed') {
        setUnconfirmed(detail.email ?? values.username);
        setError(detail.message ?? 'Debés confirmar tu e-mail antes de iniciar sesión.');
      } else setError(errorMessage(e, 'No se pudo iniciar sesión.'));
    }
  });

  const resend = async () => {
    if (!unconfirmed) return;
    try {
      const r = await api.post<{ message: string }>('/auth/resend-confirmation', { email: unconfirmed });
      setResent(r.message);
    } catch (e) {
      setResent(errorMessage(e));
    }
  };

  const err = formState.errors;
  return (
    <AuthLayout
      title="Iniciar sesión"
      subtitle="Entrá a Mostrador para gestionar tus negocios."
      footer={
        <>
          ¿No tenés cuenta?{' '}
          <Link
            to={`/register${nextParam ? `?next=${encodeURIComponent(next)}` : ''}${params.get('email') ? `${nextParam ? '&' : '?'}email=${encodeURIComponent(params.get('email')!)}` : ''}`}
            className="font-medium text-blue-600 hover:underline"
          >
            Registrate gratis
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        {flash && <Notice tone="success">{flash}</Notice>}
        {!flash && params.get('expirada') === '1' && (
          <Notice>Tu sesión expiró. Ingresá de nuevo para seguir donde estabas.</Notice>
        )}
        <Field id="login-email" label="E-mail" error={err.username?.message}>
          <Input
            id="login-email"
            type="email"
            autoComplete="email"
            autoFocus
            aria-invalid={Boolean(err.username)}
            {...register('username')}
          />
        </Field>
        <Field id="login-password" label="Contraseña" error={err.password?.message}>
          <Input
            id="login-password"
            type="password"
            autoComplete="current-password"
            aria-invalid={Boolean(err.password)}
            {...register('password')}
          />
        </Field>
        {error && <Notice tone="error">{error}</Notice>}
        {unconfirmed && (
          <div className="text-sm">
            <button type="button" className="font-medium text-blue-600 hover:underline" onClick={resend}>
              Reenviar e-mail de confirmación
            </button>
            {resent && <p className="mt-2 text-slate-600">{resent}</p>}
          </div>
        )}
        <Button type="submit" className="w-full" loading={formState.isSubmitting}>
          Iniciar sesión
        </Button>
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="text-slate-600 hover:underline">
            ¿Olvidaste tu contraseña?
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
