import { UserPlus, X } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Customer } from '@mostrador/shared/customers';
import { SALE_MESSAGES } from '@mostrador/shared/sales';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { useDebounced } from '@/features/products/inventory-ui';
import { useBusiness } from '@/app/business-context';
import { api, errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { moveActive } from './listbox';
import { useCreateCustomer, useCustomerSearch } from './pos.api';

const customerName = (c: Pick<Customer, 'nombre' | 'apellido'>) => [c.nombre, c.apellido].filter(Boolean).join(' ');

/**
 * The sale's customer: a combobox (type, ArrowDown/ArrowUp through the suggestions, Enter picks,
 * Escape closes) or "Consumidor final". Without permission to see customers there is nothing to
 * search; "Nuevo cliente" needs permission to edit them.
 */
export function CustomerPicker({
  value,
  onChange,
  text: q,
  onTextChange: setQ,
  canView,
  canCreate,
  onPicking,
  obligatorio = false,
  placeholder,
}: {
  value: Customer | null;
  onChange: (c: Customer | null) => void;
  /** What is typed and not yet chosen (the POS warns about it at F9). */
  text: string;
  onTextChange: (text: string) => void;
  canView: boolean;
  canCreate: boolean;
  /** Enter on a typed name asks the server for the customer: F9 meanwhile waits for it. */
  onPicking?: (busy: boolean) => void;
  /** A document that needs a customer (presupuestos, remitos): no "Consumidor final". */
  obligatorio?: boolean;
  placeholder?: string;
}) {
  const { businessId } = useBusiness();
  const [notFound, setNotFound] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [creating, setCreating] = useState(false);
  const debounced = useDebounced(q, 200);
  const list = useCustomerSearch(debounced, open && canView);
  const inputRef = useRef<HTMLInputElement>(null);
  const clearRef = useRef<HTMLButtonElement>(null);
  /** Where focus goes once the picker has switched between the search and the chosen customer. */
  const focusNext = useRef<'input' | 'clear' | null>(null);
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === 'input') inputRef.current?.focus();
    else if (next === 'clear') clearRef.current?.focus();
  }, [value]);

  const options = canView ? (list.data ?? []) : [];
  const expanded = open && options.length > 0;
  const current = expanded && active >= 0 && active < options.length ? active : -1;
  useEffect(() => {
    if (current >= 0) document.getElementById(`pos-cliente-${current}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  /** Enter on a typed name: the first customer that matches it, asked afresh (the list may show an older search). */
  async function pickFirst(term: string) {
    onPicking?.(true);
    const first = (
      await api.get<Customer[]>(`/businesses/${businessId}/clientes`, { q: term, limit: 1 }).catch(() => [])
    )[0];
    if (first) pick(first);
    else setNotFound(`No hay ningún cliente con «${term}».`);
    onPicking?.(false);
  }

  const pick = (c: Customer) => {
    focusNext.current = 'clear';
    onChange(c);
    setQ('');
    setOpen(false);
    setActive(-1);
  };

  const newCustomer = canCreate && (
    <button
      type="button"
      className="inline-flex items-center gap-1 text-xs font-medium text-blue-700 hover:underline"
      onClick={() => setCreating(true)}
    >
      <UserPlus className="h-3.5 w-3.5" aria-hidden /> Nuevo cliente
    </button>
  );
  const dialog = creating && (
    <NewCustomerDialog
      initial={q}
      onClose={() => setCreating(false)}
      onCreated={(c) => {
        focusNext.current = 'clear';
        onChange(c);
        setQ('');
        setCreating(false);
      }}
    />
  );

  if (value) {
    return (
      <div>
        <p className="mb-1 text-sm font-medium text-slate-700">Cliente</p>
        <div className="flex items-center justify-between rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
          <span className="text-sm font-medium text-slate-800">{customerName(value)}</span>
          <button
            ref={clearRef}
            type="button"
            className="rounded p-1 text-slate-500 hover:bg-slate-200"
            aria-label="Quitar cliente"
            onClick={() => {
              focusNext.current = canView ? 'input' : null;
              onChange(null);
            }}
          >
            <X className="h-4 w-4" />
          </button>
        </div>
      </div>
    );
  }

  if (!canView) {
    return (
      <div>
        <div className="mb-1 flex items-center justify-between">
          <p className="text-sm font-medium text-slate-700">Cliente</p>
          {newCustomer}
        </div>
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium text-slate-800">
          {SALE_MESSAGES.walkIn}
        </p>
        <p role="note" className="mt-1 text-xs text-slate-500">
          Sin permiso para ver clientes: la venta queda a consumidor final.
        </p>
        {dialog}
      </div>
    );
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      setActive(moveActive(current, options.length, e.key));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (current >= 0) pick(options[current]);
      else if (q.trim()) void pickFirst(q.trim());
    } else if (e.key === 'Escape') {
      if (expanded) e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <div className="relative">
      <div className="mb-1 flex items-center justify-between">
        <label htmlFor="pos-cliente" className="text-sm font-medium text-slate-700">
          Cliente{' '}
          {obligatorio ? (
            <span className="text-red-600">*</span>
          ) : (
            <span className="font-normal text-slate-400">(opcional)</span>
          )}
        </label>
        {newCustomer}
      </div>
      <Input
        id="pos-cliente"
        ref={inputRef}
        value={q}
        placeholder={
          placeholder ?? (obligatorio ? 'Buscar cliente por nombre o documento' : 'Consumidor final — buscar cliente')
        }
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls="pos-clientes"
        aria-activedescendant={current >= 0 ? `pos-cliente-${current}` : undefined}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKey}
        onChange={(e) => {
          setQ(e.target.value);
          setNotFound(null);
          setOpen(true);
          setActive(-1);
        }}
      />
      <ul
        id="pos-clientes"
        role="listbox"
        aria-label="Clientes"
        hidden={!expanded}
        className="absolute z-20 mt-1 max-h-60 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {expanded &&
          options.map((c, i) => (
            <li
              key={c.id}
              id={`pos-cliente-${i}`}
              role="option"
              aria-selected={i === current}
              className={cn('cursor-pointer px-3 py-2 text-sm', i === current ? 'bg-blue-50' : 'hover:bg-slate-50')}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
            >
              <span className="font-medium text-slate-800">{customerName(c)}</span>
              {c.documento_numero && <span className="ml-2 text-xs text-slate-500">{c.documento_numero}</span>}
            </li>
          ))}
      </ul>
      {notFound && (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {notFound}
        </p>
      )}
      {dialog}
    </div>
  );
}

function NewCustomerDialog({
  initial,
  onClose,
  onCreated,
}: {
  initial: string;
  onClose: () => void;
  onCreated: (c: Customer) => void;
}) {
  const create = useCreateCustomer();
  const [nombre, setNombre] = useState(initial);
  const [apellido, setApellido] = useState('');
  const [dni, setDni] = useState('');
  const [telefono, setTelefono] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Nuevo cliente">
      <form
        className="space-y-3"
        onSubmit={async (e) => {
          e.preventDefault();
          e.stopPropagation();
          setError(null);
          try {
            const c = await create.mutateAsync({
              nombre: nombre.trim(),
              apellido: apellido.trim() || null,
              documento_tipo: dni.trim() ? 'DNI' : null,
              documento_numero: dni.trim() || null,
              telefono: telefono.trim() || null,
            });
            onCreated(c);
          } catch (err) {
            setError(errorMessage(err, 'No se pudo crear el cliente.'));
          }
        }}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="nc-nombre" label="Nombre" required>
            <Input id="nc-nombre" value={nombre} onChange={(e) => setNombre(e.target.value)} autoFocus required />
          </Field>
          <Field id="nc-apellido" label="Apellido">
            <Input id="nc-apellido" value={apellido} onChange={(e) => setApellido(e.target.value)} />
          </Field>
          <Field id="nc-dni" label="DNI">
            <Input id="nc-dni" inputMode="numeric" value={dni} onChange={(e) => setDni(e.target.value)} />
          </Field>
          <Field id="nc-tel" label="Teléfono">
            <Input id="nc-tel" value={telefono} onChange={(e) => setTelefono(e.target.value)} />
          </Field>
        </div>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-3 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" loading={create.isPending}>
            Crear y seleccionar
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
