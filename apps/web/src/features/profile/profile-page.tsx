import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { profileInput, type ProfileInput, type User } from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { Card, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { api, errorMessage } from '@/lib/api';
import { applyServerErrors } from '@/lib/forms';
import { session } from '@/lib/session';
import { PinForm } from './pin-form';

function ProfileForm() {
  const qc = useQueryClient();
  const me = useQuery({ queryKey: ['me'], queryFn: () => api.get<User>('/auth/me') });
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(null);
  const form = useForm<ProfileInput>({ resolver: zodResolver(profileInput) as never });
  const { register, handleSubmit, reset, formState, setError } = form;
  useEffect(() => {
    if (me.data) reset({ nombre: me.data.nombre, apellido: me.data.apellido ?? '', telefono: me.data.telefono ?? '' });
  }, [me.data, reset]);
  const save = useMutation({
    mutationFn: (v: ProfileInput) => api.put<User>('/auth/profile', v),
    onSuccess: (u) => {
      qc.setQueryData(['me'], u);
      session.saveUser({ id: u.id, nombre: u.nombre, apellido: u.apellido, email: u.email });
    },
  });
  const onSubmit = handleSubmit(async (v) => {
    setStatus(null);
    try {
      await save.mutateAsync(v);
      setStatus({ ok: true, message: 'Perfil actualizado.' });
    } catch (e) {
      setStatus({ ok: false, message: applyServerErrors(e, setError, 'No se pudo guardar el perfil.') });
    }
  });
  if (me.isLoading) return <Skeleton className="h-48" />;
  const err = formState.errors;
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <Field id="perfil-email" label="E-mail" hint="El e-mail no se puede cambiar.">
        <Input id="perfil-email" value={me.data?.email ?? ''} disabled readOnly />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="perfil-nombre" label="Nombre" required error={err.nombre?.message}>
          <Input id="perfil-nombre" aria-invalid={Boolean(err.nombre)} {...register('nombre')} />
        </Field>
        <Field id="perfil-apellido" label="Apellido" error={err.apellido?.message}>
          <Input id="perfil-apellido" {...register('apellido')} />
        </Field>
      </div>
      <Field id="perfil-telefono" label="Teléfono" error={err.telefono?.message}>
        <Input id="perfil-telefono" type="tel" {...register('telefono')} />
      </Field>
      {status &&
        (status.ok ? (
          <p role="status" className="text-sm text-emerald-700">
            {status.message}
          </p>
        ) : (
          <ErrorNote>{status.message}</ErrorNote>
        ))}
      <Button type="submit" loading={formState.isSubmitting}>
        Guardar cambios
      </Button>
    </form>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (next !== repeat) return setStatus({ ok: false, message: 'Las contraseñas nuevas no coinciden.' });
    setBusy(true);
    setStatus(null);
    try {
      const r = await api.put<{ message: string }>('/auth/change-password', {
        current_password: current,
        new_password: next,
      });
      setStatus({ ok: true, message: r.message });
      setCurrent('');
      setNext('');
      setRepeat('');
    } catch (err) {
      setStatus({ ok: false, message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <Field id="pw-actual" label="Contraseña actual">
        <Input
          id="pw-actual"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
      </Field>
      <Field id="pw-nueva" label="Contraseña nueva" hint="Al menos 8 caracteres. Se cerrarán tus otras sesiones.">
        <Input
          id="pw-nueva"
          type="password"
          autoComplete="new-password"
          required
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
      </Field>
      <Field id="pw-repetir" label="Repetí la contraseña nueva">
        <Input
          id="pw-repetir"
          type="password"
          autoComplete="new-password"
          required
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
        />
      </Field>
      {status &&
        (status.ok ? (
          <p role="status" className="text-sm text-emerald-700">
            {status.message}
          </p>
        ) : (
          <ErrorNote>{status.message}</ErrorNote>
        ))}
      <Button type="submit" loading={busy}>
        Cambiar contraseña
      </Button>
    </form>
  );
}

export default function ProfilePage() {
  return (
    <div className="max-w-2xl">
      <PageHeader title="Mi perfil" />
      <Card>
        <h2 className="mb-4 font-semibold text-slate-900">Datos personales</h2>
        <ProfileForm />
      </Card>
      <Card className="mt-6">
        <h2 className="mb-4 font-semibold text-slate-900">Contraseña</h2>
        <PasswordForm />
      </Card>
      <Card className="mt-6">
        <h2 className="mb-4 font-semibold text-slate-900">PIN para autorizar en el mostrador</h2>
        <PinForm />
      </Card>
    </div>
  );
}
