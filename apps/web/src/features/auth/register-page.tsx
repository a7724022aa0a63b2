import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { signupInput, type LoginResponse, type SignupInput } from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { api, request } from '@/lib/api';
import { session } from '@/lib/session';
import { applyServerErrors } from '@/lib/forms';
import { AuthLayout, Notice } from './auth-layout';
import { CheckEmail } from './check-email';

interface SignupResponse {
  message: string;
  email: string;
  requires_confirmation: boolean;
}
interface Credentials {
  email: string;
  password: string;
}

export default function RegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<(SignupResponse & { credentials: Credentials }) | null>(null);
  const {
    register,
    handleSubmit,
    formState,
    setError: setFieldError,
  } = useForm<SignupInput>({
    resolver: zodResolver(signupInput) as never,
    // An invitation's page sends its e-mail along (?email=).
    defaultValues: { email: params.get('email') ?? '' },
  });

  const next = params.get('next');
  // The password stays only in this page's memory, to log in once the e-mail is confirmed.
  const enter = async ({ email, password }: Credentials) => {
    const { data } = await request<LoginResponse>('/auth/login', {
      method: 'POST',
      form: { username: email, password },
      skipAuthRedirect: true,
    });
    session.save(data.access_token, data.user);
    navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/home', { replace: true });
  };

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const r = await api.post<SignupResponse>('/auth/signup', values);
      const credentials = { email: String(values.email), password: String(values.password) };
      if (r.requires_confirmation) return setSent({ ...r, credentials });
      // No e-mail to confirm: the new account is already in, no second trip through the login.
      await enter(credentials);
    } catch (e) {
      setError(applyServerErrors(e, setFieldError, 'No se pudo crear la cuenta.'));
    }
  });

  if (sent) return <CheckEmail sent={sent} enter={enter} />;

  const err = formState.errors;
  return (
    <AuthLayout
      title="Crear cuenta"
      subtitle="14 días de prueba gratis, sin tarjeta."
      footer={
        <>
          ¿Ya tenés cuenta?{' '}
          <Link to="/login" className="font-medium text-blue-600 hover:underline">
            Iniciá sesión
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="reg-nombre" label="Nombre" required error={err.nombre?.message}>
            <Input
              id="reg-nombre"
              autoComplete="given-name"
              autoFocus
              aria-invalid={Boolean(err.nombre)}
              {...register('nombre')}
            />
          </Field>
          <Field id="reg-apellido" label="Apellido" error={err.apellido?.message}>
            <Input id="reg-apellido" autoComplete="family-name" {...register('apellido')} />
          </Field>
        </div>
        <Field id="reg-email" label="E-mail" required error={err.email?.message}>
          <Input
            id="reg-email"
            type="email"
            autoComplete="email"
            aria-invalid={Boolean(err.email)}
            {...register('email')}
          />
        </Field>
        <Field
          id="reg-password"
          label="Contraseña"
          required
          hint="Al menos 8 caracteres."
          error={err.password?.message}
        >
          <Input
            id="reg-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(err.password)}
            {...register('password')}
          />
        </Field>
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" className="w-full" loading={formState.isSubmitting}>
          Crear cuenta
        </Button>
      </form>
    </AuthLayout>
  );
}
