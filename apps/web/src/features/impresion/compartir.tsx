import { useEffect, useRef, useState } from 'react';
import { Copy, ExternalLink, Mail, MessageCircle, Share2 } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import type { Compartido, CompartirInput } from '@mostrador/shared/impresion';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { api, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';

/*
 * Share a document (issue 35): a link to its PDF that needs no login and expires, sent by
 * WhatsApp (wa.me with the customer's phone) or by e-mail, or copied.
 */

type Tipo = CompartirInput['tipo'];

function useCompartir() {
  const b = useBusiness().businessId ?? '';
  return useMutation({
    mutationFn: (v: CompartirInput) => api.post<Compartido>(`/businesses/${b}/documentos/compartir`, v),
  });
}

export function CompartirButton({
  tipo,
  id,
  email,
  label = 'Compartir',
}: {
  tipo: Tipo;
  id: string;
  /** The customer's e-mail, offered in the form. */
  email?: string | null;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Share2 className="h-4 w-4" aria-hidden /> {label}
      </Button>
      {open && <CompartirDialog tipo={tipo} id={id} email={email ?? ''} onClose={() => setOpen(false)} />}
    </>
  );
}

function CompartirDialog({ tipo, id, email, onClose }: { tipo: Tipo; id: string; email: string; onClose: () => void }) {
  const { formatting } = useBusiness();
  const enlace = useCompartir();
  const envio = useCompartir();
  const { mutate } = enlace;
  const started = useRef(false);
  const [para, setPara] = useState(email);
  const [copiado, setCopiado] = useState(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate({ tipo, id });
  }, [mutate, tipo, id]);
  const c = enlace.data;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Compartir" className="max-w-md">
      {enlace.isError && <ErrorNote>{errorMessage(enlace.error, 'No se pudo crear el enlace.')}</ErrorNote>}
      {!c && !enlace.isError && <p className="text-sm text-slate-600">Creando el enlace…</p>}
      {c && (
        <div className="space-y-4">
          <p className="text-sm text-slate-600" data-testid="compartir-vence">
            Cualquiera con el enlace ve el PDF sin iniciar sesión, hasta el {formatDateTime(c.vence, formatting)}.
          </p>
          <Field id="compartir-url" label="Enlace">
            <div className="flex gap-2">
              <Input id="compartir-url" readOnly value={c.url} onFocus={(e) => e.currentTarget.select()} />
              <Button
                variant="secondary"
                aria-label="Copiar enlace"
                onClick={() =>
                  navigator.clipboard?.writeText(c.url).then(
                    () => setCopiado(true),
                    () => setCopiado(false),
                  )
                }
              >
                <Copy className="h-4 w-4" aria-hidden />
              </Button>
            </div>
          </Field>
          {copiado && <p className="text-sm text-emerald-700">Enlace copiado.</p>}
          <div className="grid gap-2 sm:grid-cols-2">
            <a
              className="inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-emerald-600 px-4 text-sm font-medium text-white hover:bg-emerald-700"
              href={c.whatsapp_url}
              target="_blank"
              rel="noopener noreferrer"
            >
              <MessageCircle className="h-4 w-4" aria-hidden /> Enviar por WhatsApp
            </a>
            <a
              className="inline-flex h-10 items-center justify-center gap-2 rounded-lg px-4 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
              href={c.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              <ExternalLink className="h-4 w-4" aria-hidden /> Ver el PDF
            </a>
          </div>
          <form
            className="space-y-2"
            onSubmit={(e) => {
              e.preventDefault();
              envio.mutate({ tipo, id, email: para.trim() });
            }}
          >
            <Field id="compartir-email" label="Enviar por e-mail a">
              <Input
                id="compartir-email"
                type="email"
                value={para}
                placeholder="cliente@ejemplo.com"
                onChange={(e) => setPara(e.target.value)}
              />
            </Field>
            <Button type="submit" variant="secondary" disabled={!para.trim()} loading={envio.isPending}>
              <Mail className="h-4 w-4" aria-hidden /> Enviar por e-mail
            </Button>
            {envio.isSuccess && <p className="text-sm text-emerald-700">Enviado a {para.trim()}.</p>}
            {envio.isError && <ErrorNote>{errorMessage(envio.error, 'No se pudo enviar el e-mail.')}</ErrorNote>}
          </form>
        </div>
      )}
    </Dialog>
  );
}
