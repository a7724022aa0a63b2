import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import {
  ACCOUNT_TYPE_LABELS,
  ACCOUNT_TYPES,
  accountForm,
  accountUpdate,
  centsToNumber,
  FINANCE_PAYMENT_METHODS,
  paymentMethodLabel,
  type Account,
  type AccountType,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FinanceFormTail } from './form-tail';
import { Field, Input, InputField, MoneyField, Select } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { INVALID_AMOUNT, parseDecimal } from '@/lib/decimal';
import { errorMessage } from '@/lib/api';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { formatDate, formatMoney, todayIn } from '@/lib/format';
import { applyServerErrors } from '@/lib/forms';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { customerLabel, useCustomerOptions, useFinanceCategories, useMarkPaid, useSaveAccount } from './finance.api';

interface Values {
  tipo: AccountType;
  cliente_id: string;
  proveedor_id: string;
  proveedor_nombre: string;
  monto: string;
  fecha_emision: string;
  fecha_vencimiento: string;
  descripcion: string;
  observaciones: string;
}
type Output = z.output<typeof accountForm>;

function AccountForm({
  account,
  presetTipo,
  onDone,
}: {
  account?: Account;
  presetTipo: AccountType;
  onDone: () => void;
}) {
  const { formatting } = useBusiness();
  const customers = useCustomerOptions();
  // Without access to the suppliers (e.g. 403 for a member without stock/ver) the supplier is typed.
  const suppliers = useSupplierOptions();
  const save = useSaveAccount();
  const [formError, setFormError] = useState<string | null>(null);
  // A paid account keeps everything but its texts (the other fields are disabled and arrive empty).
  const paid = account?.estado === 'pagado';
  // A purchase's payable: only the due date and the texts change here (the rest from the purchase).
  const fromPurchase = Boolean(account?.compra_id) && !paid;
  const locked = paid || fromPurchase;
  const today = todayIn(formatting.timezone);
  const { register, handleSubmit, control, setValue, setError, formState } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(locked ? accountUpdate : accountForm, { monto: 'money' }),
    defaultValues: account
      ? {
          tipo: account.tipo,
          cliente_id: account.cliente_id ?? '',
          proveedor_id: account.proveedor_id ?? '',
          proveedor_nombre: account.proveedor_nombre ?? '',
          monto: decimalText(account.monto, 'money'),
          fecha_emision: account.fecha_emision,
          fecha_vencimiento: account.fecha_vencimiento,
          descripcion: account.descripcion,
          observaciones: account.observaciones ?? '',
        }
      : {
          tipo: presetTipo,
          cliente_id: '',
          proveedor_id: '',
          proveedor_nombre: '',
          monto: '',
          fecha_emision: today,
          fecha_vencimiento: '',
          descripcion: '',
          observaciones: '',
        },
  });
  const tipo = useWatch({ control, name: 'tipo' });
  const proveedorId = useWatch({ control, name: 'proveedor_id' });
  const err = formState.errors;
  // The registered suppliers to pick from: the active ones, plus the account's own.
  const supplierRows = suppliers.data?.rows ?? [];
  const supplierOptions = supplierRows.filter((s) => s.estado === 'activo' || s.id === account?.proveedor_id);
  const ownMissing = Boolean(account?.proveedor_id) && !supplierRows.some((s) => s.id === account?.proveedor_id);
  // While the suppliers load, the picker shows (disabled) instead of a name field that would turn
  // into it under the user's hands.
  const loadingSuppliers = suppliers.isLoading;
  const picker =
    !suppliers.isError && (loadingSuppliers || supplierOptions.length > 0 || Boolean(account?.proveedor_id));
  const supplierName = (id: string) =>
    supplierRows.find((s) => s.id === id)?.nombre ??
    (id === account?.proveedor_id ? account.proveedor_nombre : null) ??
    null;

  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await save.mutateAsync({
        id: account?.id,
        body: paid
          ? { descripcion: v.descripcion, observaciones: v.observaciones ?? null }
          : fromPurchase
            ? {
                fecha_vencimiento: v.fecha_vencimiento,
                descripcion: v.descripcion,
                observaciones: v.observaciones ?? null,
              }
            : {
                tipo: v.tipo,
                // SPEC §5: the client only for por_cobrar, the supplier only for por_pagar; empty → null.
                cliente_id: v.tipo === 'por_cobrar' ? (v.cliente_id ?? null) : null,
                // A registered supplier goes with its name; otherwise the typed name.
                proveedor_id: v.tipo === 'por_pagar' ? (v.proveedor_id ?? null) : null,
                proveedor_nombre:
                  v.tipo !== 'por_pagar'
                    ? null
                    : picker && v.proveedor_id
                      ? supplierName(v.proveedor_id)
                      : (v.proveedor_nombre ?? null),
                monto: centsToNumber(v.monto),
                fecha_emision: v.fecha_emision,
                fecha_vencimiento: v.fecha_vencimiento,
                descripcion: v.descripcion,
                observaciones: v.observaciones ?? null,
              },
      });
      onDone();
    } catch (e) {
      console.error(e);
      setFormError(applyServerErrors(e, setError, 'Error al guardar la cuenta'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {paid && (
        <p className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-800">
          La cuenta ya está pagada: solo se pueden editar la descripción y las observaciones.
        </p>
      )}
      {fromPurchase && account?.compra_id && (
        <p className="rounded-lg bg-sky-50 p-3 text-sm text-sky-800">
          Esta cuenta la generó una compra: el resto se modifica desde la compra.{' '}
          <Link to={`/compras/${account.compra_id}`} className="font-medium underline hover:text-sky-950">
            Ver la compra
          </Link>
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="cta-tipo" label="Tipo" required error={err.tipo?.message}>
          <Select
            id="cta-tipo"
            disabled={locked}
            {...register('tipo', {
              onChange: (e) => {
                if (e.target.value === 'por_pagar') setValue('cliente_id', '');
                else {
                  setValue('proveedor_id', '');
                  setValue('proveedor_nombre', '');
                }
              },
            })}
          >
            {ACCOUNT_TYPES.map((t) => (
              <option key={t} value={t}>
                {ACCOUNT_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
        </Field>
        <MoneyField id="cta-monto" label="Monto" required error={err.monto} disabled={locked} {...register('monto')} />
      </div>
      {tipo === 'por_cobrar' ? (
        <Field id="cta-cliente" label="Cliente" error={err.cliente_id?.message}>
          <Select id="cta-cliente" disabled={locked} aria-invalid={Boolean(err.cliente_id)} {...register('cliente_id')}>
            <option value="">Sin cliente</option>
            {(customers.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {customerLabel(c)}
              </option>
            ))}
            {account?.cliente_id && !(customers.data ?? []).some((c) => c.id === account.cliente_id) && (
              <option value={account.cliente_id}>{account.cliente_nombre ?? 'Cliente'}</option>
            )}
          </Select>
        </Field>
      ) : picker ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="cta-proveedor-id" label="Proveedor" required error={err.proveedor_id?.message}>
            <Select
              id="cta-proveedor-id"
              disabled={locked || loadingSuppliers}
              aria-invalid={Boolean(err.proveedor_id)}
              {...register('proveedor_id')}
            >
              <option value="">{loadingSuppliers ? 'Cargando proveedores…' : 'Otro proveedor'}</option>
              {supplierOptions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.nombre}
                </option>
              ))}
              {ownMissing && account?.proveedor_id && (
                <option value={account.proveedor_id}>{account.proveedor_nombre ?? 'Proveedor'}</option>
              )}
            </Select>
          </Field>
          {!proveedorId && (
            <InputField
              id="cta-proveedor"
              label="Nombre del proveedor"
              required
              error={err.proveedor_nombre}
              disabled={locked}
              {...register('proveedor_nombre')}
            />
          )}
        </div>
      ) : (
        <InputField
          id="cta-proveedor"
          label="Proveedor"
          required
          error={err.proveedor_nombre}
          disabled={locked}
          {...register('proveedor_nombre')}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="cta-emision"
          label="Fecha de Emisión"
          required
          error={err.fecha_emision}
          type="date"
          disabled={locked}
          {...register('fecha_emision')}
        />
        <InputField
          id="cta-vencimiento"
          label="Fecha de Vencimiento"
          required
          error={err.fecha_vencimiento}
          type="date"
          disabled={paid}
          {...register('fecha_vencimiento')}
        />
      </div>
      <InputField
        id="cta-descripcion"
        label="Descripción"
        required
        error={err.descripcion}
        {...register('descripcion')}
      />
      <FinanceFormTail
        id="cta-observaciones"
        notes={register('observaciones')}
        notesError={err.observaciones}
        formError={formError}
        busy={formState.isSubmitting}
        editing={Boolean(account)}
        onCancel={onDone}
      />
    </form>
  );
}

/** 'Nueva Cuenta' / 'Editar Cuenta' (SPEC §2). */
export function AccountFormDialog({
  open,
  onOpenChange,
  account,
  presetTipo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  account?: Account;
  presetTipo: AccountType;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={account ? 'Editar Cuenta' : 'Nueva Cuenta'}>
      <AccountForm account={account} presetTipo={presetTipo} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function MarkPaidForm({ account, onDone }: { account: Account; onDone: () => void }) {
  const { formatting } = useBusiness();
  const markPaid = useMarkPaid();
  const [fecha, setFecha] = useState(() => todayIn(formatting.timezone));
  const [metodo, setMetodo] = useState('efectivo');
  // Empty: everything that is left (the account is then paid).
  const [montoText, setMontoText] = useState('');
  const falta = account.saldo_pendiente ?? account.monto;
  // null until the user picks one: then the default below (categories may still be loading).
  const [categoria, setCategoria] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cobro = account.tipo === 'por_cobrar';
  const categories = useFinanceCategories();
  const options = (categories.data ?? []).filter((c) => c.activo && c.tipo === (cobro ? 'ingreso' : 'egreso'));
  // A supplier's payable is usually a purchase: "Compras" (the system category) comes chosen.
  const supplierDebt = !cobro && Boolean(account.compra_id || account.proveedor_id || account.proveedor_nombre);
  const compras = supplierDebt ? options.find((c) => c.sistema && c.nombre === 'Compras') : undefined;
  const categoriaId = categoria ?? compras?.id ?? '';
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!fecha) return setError('Indicá la fecha de pago.');
        const parte = montoText.trim() ? parseDecimal(montoText, 2) : null;
        if (montoText.trim() && (parte === null || parte <= 0)) return setError(INVALID_AMOUNT);
        if (parte !== null && parte > Math.round(falta * 100)) {
          return setError(`El pago supera lo que falta pagar de la cuenta (${formatMoney(falta, formatting)}).`);
        }
        setError(null);
        try {
          await markPaid.mutateAsync({
            id: account.id,
            fecha_pago: fecha,
            metodo_pago: metodo,
            categoria_id: categoriaId || null,
            ...(parte !== null ? { monto: parte / 100 } : {}),
          });
          onDone();
        } catch (err) {
          console.error(err);
          setError(errorMessage(err, 'Error al marcar la cuenta como pagada'));
        }
      }}
    >
      <p className="text-sm text-slate-600">
        Se registrará un {cobro ? 'ingreso' : 'egreso'} de{' '}
        <strong className="text-slate-900">{formatMoney(falta, formatting)}</strong> por «{account.descripcion}»
        {account.fecha_vencimiento && <> (vencimiento {formatDate(account.fecha_vencimiento, formatting)})</>}
        {account.monto_pagado > 0 && <> (ya se pagaron {formatMoney(account.monto_pagado, formatting)})</>}, o de la
        parte que indiques.
      </p>
      <Field id="pago-monto" label="Monto de este pago ($)" hint="Vacío: todo lo que falta. Podés pagar en partes.">
        <Input
          id="pago-monto"
          inputMode="decimal"
          placeholder={formatMoney(falta, formatting)}
          value={montoText}
          onChange={(e) => setMontoText(e.target.value)}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="pago-fecha" label="Fecha de pago" required>
          <Input id="pago-fecha" type="date" value={fecha} onChange={(e) => setFecha(e.target.value)} />
        </Field>
        <Field id="pago-metodo" label="Método de Pago" required>
          <Select id="pago-metodo" value={metodo} onChange={(e) => setMetodo(e.target.value)}>
            {FINANCE_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {paymentMethodLabel(m)}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field
        id="pago-categoria"
        label="Categoría"
        hint={`Del ${cobro ? 'ingreso' : 'egreso'} que se registra en Finanzas.`}
      >
        <Select id="pago-categoria" value={categoriaId} onChange={(e) => setCategoria(e.target.value)}>
          {/* Without a category the server files a purchase's payment under «Compras» anyway. */}
          {(!account.compra_id || !compras) && <option value="">Sin categoría</option>}
          {options.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nombre}
            </option>
          ))}
        </Select>
      </Field>
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" variant="success" loading={markPaid.isPending}>
          Confirmar pago
        </Button>
      </div>
    </form>
  );
}

/** Mark-as-paid: the payment is recorded as a movement of the chosen date and method. */
export function MarkPaidDialog({
  account,
  onOpenChange,
}: {
  account: Account | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={account !== null}
      onOpenChange={onOpenChange}
      title={account?.tipo === 'por_pagar' ? 'Registrar pago' : 'Registrar cobro'}
    >
      {account && <MarkPaidForm account={account} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}
