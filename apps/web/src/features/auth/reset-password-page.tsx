import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { api, errorMessage } from '@/lib/api';
import { AuthLayout, Notice } from './auth-layout';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const token = params.get('token') ?? '';

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (password !== repeat) return setError('Las contraseñas no coinciden.');
    setBusy(true);
    setError(null);
    try {
      const r = await api.post<{ message: string }>('/auth/reset-password', { token, new_password: password });
      navigate('/login', { state: { message: r.message } });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthLayout title="Elegí una contraseña nueva">
      <form onSubmit={submit} className="space-y-4">
        <Field id="reset-password" label="Contraseña nueva" hint="Al menos 8 caracteres.">
          <Input
            id="reset-password"
            type="password"
            autoComplete="new-password"
            required
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Field id="reset-repeat" label="Repetí la contraseña">
          <Input
            id="reset-repeat"
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </Field>
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" className="w-full" loading={busy}>
          Guardar contraseña
        </Button>
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="text-slate-600 hover:underline">
            Pedir un enlace nuevo
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
