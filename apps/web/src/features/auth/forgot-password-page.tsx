import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { api, errorMessage } from '@/lib/api';
import { AuthLayout, Notice } from './auth-layout';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await api.post<{ message: string }>('/auth/forgot-password', { email });
      setResult({ ok: true, message: r.message });
    } catch (err) {
      setResult({ ok: false, message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthLayout title="Recuperar contraseña" subtitle="Te enviamos un enlace para elegir una contraseña nueva.">
      <form onSubmit={submit} className="space-y-4">
        <Field id="forgot-email" label="E-mail">
          <Input
            id="forgot-email"
            type="email"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        {result && <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice>}
        <Button type="submit" className="w-full" loading={busy}>
          Enviar enlace
        </Button>
        <p className="text-center text-sm">
          <Link to="/login" className="text-slate-600 hover:underline">
            Volver a iniciar sesión
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
