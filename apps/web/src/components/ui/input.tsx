import {
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { cn } from '@/lib/cn';

const base =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/30 disabled:bg-slate-100 [&[readonly]]:bg-slate-100 [&[readonly]]:text-slate-600 aria-[invalid=true]:border-red-500';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...rest },
  ref,
) {
  return <input ref={ref} className={cn(base, 'h-10', className)} {...rest} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, ...rest },
  ref,
) {
  return <textarea ref={ref} className={cn(base, 'min-h-20 py-2', className)} {...rest} />;
});

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, children, ...rest },
  ref,
) {
  return (
    <select ref={ref} className={cn(base, 'h-10 pr-8', className)} {...rest}>
      {children}
    </select>
  );
});

/** A select of a filter bar: its label is for screen readers only. */
export function FilterSelect({
  id,
  label,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { id: string; label: string }) {
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Select id={id} {...rest} />
    </div>
  );
}

/** A labelled form field with its error message, wired for screen readers. */
export function Field({
  id,
  label,
  error,
  hint,
  required,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {required && <span className="text-red-600"> *</span>}
      </label>
      {children}
      {hint && !error && <p className="text-xs text-slate-500">{hint}</p>}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

type InputFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: string;
  hint?: string;
  /** The form library's error for the field: its message shows below, and marks the input invalid. */
  error?: { message?: string };
};

/** A Field holding one Input (the `required` mark goes on the label, not the input). */
export const InputField = forwardRef<HTMLInputElement, InputFieldProps>(function InputField(
  { id, label, hint, required, error, ...rest },
  ref,
) {
  return (
    <Field id={id} label={label} hint={hint} required={required} error={error?.message}>
      <Input ref={ref} id={id} aria-invalid={Boolean(error)} {...rest} />
    </Field>
  );
});

/**
 * An InputField for a number typed the es-AR way ("1.234,50", "1,5"): a text input with the
 * decimal keypad on phones (a number input drops the comma in some locales). The form reads it
 * with `decimalResolver` or `readDecimal` (lib/decimal-input) and fills it with `decimalText`.
 */
export const DecimalField = forwardRef<HTMLInputElement, InputFieldProps>(function DecimalField(props, ref) {
  return <InputField ref={ref} type="text" inputMode="decimal" autoComplete="off" {...props} />;
});

/** A DecimalField for an amount of money (kind `money` of the form's decimalResolver). */
export const MoneyField = DecimalField;

/** A whole number (minutes, days): digits only; decimals get the form's message. */
export const IntegerField = forwardRef<HTMLInputElement, InputFieldProps>(function IntegerField(props, ref) {
  return <InputField ref={ref} type="text" inputMode="numeric" autoComplete="off" {...props} />;
});
