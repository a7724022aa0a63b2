import { zodResolver } from '@hookform/resolvers/zod';
import { Check, Copy, MailCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { invitationForm, type InvitationCreated, type InvitationFormValues } from '@mostrador/shared';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { applyServerErrors } from '@/lib/forms';
import { useInvite } from './team.api';

/** The invitation link, selectable and with a copy button. */
export function InvitationLink({ url, label = 'Enlace de invitación' }: { url: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 font-mono text-xs"
        />
        <Button
          variant="secondary"
          size="icon"
          className="h-10 w-10 shrink-0"
          aria-label="Copiar enlace"
          title="Copiar enlace"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(url);
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            } catch {
              document.getElementById(id)?.focus();
            }
          }}
        >
          {copied ? <Check className="h-4 w-4 text-emerald-600" /> : <Copy className="h-4 w-4" />}
        </Button>
      </div>
    </div>
  );
}

export function InviteDialog({
  businessId,
  open,
  onOpenChange,
}: {
  businessId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const invite = useInvite(businessId);
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<InvitationFormValues>({
    resolver: zodResolver(invitationForm) as never,
    defaultValues: { email: '', rol: 'empleado', mensaje: '' },
  });
  const { register, handleSubmit, formState, setError } = form;
  const err = formState.errors;
  const close = (o: boolean) => {
    if (!o) {
      form.reset();
      setCreated(null);
      setFormError(null);
    }
    onOpenChange(o);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Invitar al equipo"
      description="La persona recibe un enlace para sumarse; después aprobás su acceso y sus permisos."
    >
      {created ? (
        <div className="space-y-4">
          <div className="flex items-start gap-3 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900" role="status">
            <MailCheck className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
            <p>
              Invitación creada para <strong>{created.invitacion.email}</strong>.{' '}
              {created.enviado
                ? 'Le enviamos el enlace por e-mail; también podés compartirlo vos.'
                : 'Compartile este enlace (el envío por e-mail no está configurado).'}{' '}
              Vale 7 días.
            </p>
          </div>
          {created.invitacion.enlace && <InvitationLink url={created.invitacion.enlace} />}
          <div className="flex justify-end gap-3">
            <Button
              variant="secondary"
              onClick={() => {
                form.reset();
                setCreated(null);
              }}
            >
              Invitar a otra persona
            </Button>
            <Button onClick={() => close(false)}>Listo</Button>
          </div>
        </div>
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={handleSubmit(async (values) => {
            setFormError(null);
            try {
              const v = invitationForm.parse(values);
              setCreated(await invite.mutateAsync(v));
            } catch (e) {
              setFormError(applyServerErrors(e, setError, 'No se pudo crear la invitación.'));
            }
          })}
        >
          <Field id="invitar-email" label="E-mail" required error={err.email?.message}>
            <Input
              id="invitar-email"
              type="email"
              autoComplete="off"
              autoFocus
              aria-invalid={Boolean(err.email)}
              {...register('email')}
            />
          </Field>
          <Field id="invitar-rol" label="Rol" error={err.rol?.message}>
            <Select id="invitar-rol" {...register('rol')}>
              <option value="empleado">Empleado</option>
              <option value="admin">Administrador</option>
            </Select>
          </Field>
          <Field id="invitar-mensaje" label="Mensaje (opcional)" error={err.mensaje?.message}>
            <Textarea id="invitar-mensaje" rows={2} {...register('mensaje')} />
          </Field>
          {formError && <ErrorNote>{formError}</ErrorNote>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={() => close(false)}>
              Cancelar
            </Button>
            <Button type="submit" loading={formState.isSubmitting}>
              Crear invitación
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
