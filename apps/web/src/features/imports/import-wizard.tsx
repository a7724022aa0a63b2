import { AlertTriangle, CheckCircle2, Download, FileSpreadsheet, Pencil, Upload } from 'lucide-react';
import { useRef, useState, type DragEvent, type FormEvent } from 'react';
import {
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  IMPORT_MAX_BYTES,
  IMPORT_REQUIRED_FIELDS,
  missingImportFields,
  type ImportConfirmResult,
  type ImportEmptyStock,
  type ImportField,
  type ImportSheetsResult,
  type ImportUploadResult,
  type StagedRow,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { Badge, ErrorNote } from '@/components/ui/misc';
import { Pager, RowsSkeleton, Tabs } from '@/features/products/inventory-ui';
import { ApiError, errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { decimalText, readDecimal, type DecimalKind } from '@/lib/decimal-input';
import { formatMoney, formatNumber } from '@/lib/format';
import {
  STAGED_PAGE,
  useCancelImport,
  useConfirmImport,
  useErrorsDownload,
  useImportApi,
  useImportSummary,
  useStagedRows,
  UploadError,
  useUpdateStagedRow,
  type StagedSummary,
} from './imports.api';
import { ColumnMappingTable } from './column-mapping';

type Step = 'archivo' | 'hoja' | 'columnas' | 'revision' | 'resultado';
const STEPS: { id: Step; label: string }[] = [
  { id: 'archivo', label: 'Archivo' },
  { id: 'hoja', label: 'Hoja' },
  { id: 'columnas', label: 'Columnas' },
  { id: 'revision', label: 'Revisión' },
  { id: 'resultado', label: 'Listo' },
];

function Stepper({ step }: { step: Step }) {
  const at = STEPS.findIndex((s) => s.id === step);
  return (
    <ol
      className="mb-5 flex items-center gap-1 overflow-x-auto text-xs sm:text-sm"
      aria-label="Pasos de la importación"
    >
      {STEPS.map((s, i) => (
        <li key={s.id} className="flex items-center gap-1" aria-current={i === at ? 'step' : undefined}>
          <span
            className={cn(
              'flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
              i < at
                ? 'bg-emerald-600 text-white'
                : i === at
                  ? 'bg-blue-600 text-white'
                  : 'bg-slate-200 text-slate-500',
            )}
          >
            {i + 1}
          </span>
          <span
            className={cn(
              'whitespace-nowrap',
              i === at ? 'font-medium text-slate-900' : 'hidden text-slate-500 sm:inline',
            )}
          >
            {s.label}
          </span>
          {i < STEPS.length - 1 && <span className="mx-1 h-px w-3 bg-slate-300 sm:w-6" aria-hidden />}
        </li>
      ))}
    </ol>
  );
}

/** Upload progress, then an indeterminate bar while the server reads the file. */
function Progress({ fraction, label }: { fraction: number; label: string }) {
  const reading = fraction >= 1;
  return (
    <div className="space-y-2" role="status" aria-live="polite">
      <p className="text-sm text-slate-700">
        {reading ? 'Leyendo y revisando el archivo… puede tardar unos segundos.' : label}
      </p>
      <div className="h-2 overflow-hidden rounded-full bg-slate-200">
        <div
          className={cn('h-full rounded-full bg-blue-600 transition-all', reading && 'animate-pulse')}
          style={{ width: `${Math.max(4, Math.round(fraction * 100))}%` }}
        />
      </div>
    </div>
  );
}

function Summary({ s }: { s: StagedSummary | ImportUploadResult }) {
  const { formatting } = useBusiness();
  const cards = [
    { label: 'Filas leídas', value: s.total, color: 'text-slate-900' },
    { label: 'Productos nuevos', value: s.nuevos, color: 'text-emerald-700' },
    { label: 'Actualizaciones', value: s.actualizaciones, color: 'text-blue-700' },
    { label: 'Con errores', value: s.con_errores, color: s.con_errores ? 'text-red-700' : 'text-slate-900' },
  ];
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="rounded-lg border border-slate-200 p-3">
            <dt className="text-xs text-slate-500">{c.label}</dt>
            <dd className={cn('text-xl font-semibold tabular-nums', c.color)}>{formatNumber(c.value, formatting)}</dd>
          </div>
        ))}
      </dl>
      {s.categorias_nuevas.length > 0 && (
        <p className="text-sm text-slate-600">
          Categorías nuevas: <strong className="text-slate-900">{s.categorias_nuevas.join(', ')}</strong>
        </p>
      )}
    </div>
  );
}

const FIELD_OPTIONS = IMPORT_FIELDS.map((f) => ({
  value: f,
  label: `${IMPORT_FIELD_LABELS[f]}${IMPORT_REQUIRED_FIELDS.includes(f) ? ' *' : ''}`,
}));

/** Step 3: how each column of the file is read; changing it reads the file again. */
interface ColumnsRead {
  columnas: ImportUploadResult['columnas'];
  columnas_originales: string[];
  /** Each column's first values, as the server read them. */
  columnas_archivo?: ImportUploadResult['columnas_archivo'];
  /** The staged result; absent when the file could not be staged with these columns. */
  summary?: ImportUploadResult;
}

function ColumnsStep({
  result,
  busy,
  onApply,
  onNext,
}: {
  result: ColumnsRead;
  busy: boolean;
  onApply: (mapeo: Record<string, string | null>) => void;
  onNext: () => void;
}) {
  const detected = Object.fromEntries(result.columnas.map((c) => [c.columna, c.campo])) as Record<string, ImportField>;
  const headers = result.columnas_originales.filter(Boolean);
  const [mapping, setMapping] = useState<Record<string, string>>(() =>
    Object.fromEntries(headers.map((h) => [h, detected[h] ?? ''])),
  );
  const changed = headers.some((h) => (mapping[h] ?? '') !== (detected[h] ?? ''));
  const used = Object.values(mapping).filter(Boolean);
  const duplicated = used.find((f, i) => used.indexOf(f) !== i);
  const missing = missingImportFields(used as ImportField[]);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Reconocimos las columnas por su encabezado. Revisá a qué dato corresponde cada una; las que quedan en «No
        importar» se ignoran.
      </p>
      <ColumnMappingTable
        columns={headers.map((h) => ({
          columna: h,
          muestras: result.columnas_archivo?.find((c) => c.columna === h)?.muestras,
        }))}
        value={mapping}
        onChange={setMapping}
        options={FIELD_OPTIONS}
      />
      {duplicated && (
        <ErrorNote>La columna {IMPORT_FIELD_LABELS[duplicated as ImportField]} está asignada más de una vez.</ErrorNote>
      )}
      {!duplicated && missing.length > 0 && (
        <ErrorNote>Faltan columnas obligatorias: {missing.map((f) => IMPORT_FIELD_LABELS[f]).join(', ')}.</ErrorNote>
      )}
      {!changed && result.summary && <Summary s={result.summary} />}
      <div className="flex justify-end gap-3">
        {changed ? (
          <Button
            loading={busy}
            disabled={Boolean(duplicated) || missing.length > 0}
            onClick={() => onApply(Object.fromEntries(headers.map((h) => [h, mapping[h] || null])))}
          >
            Volver a leer con estas columnas
          </Button>
        ) : (
          <Button onClick={onNext} disabled={!result.summary}>
            Revisar productos
          </Button>
        )}
      </div>
    </div>
  );
}

/** The fields a staged row edits; the numbers are typed the es-AR way ("1.234,50"). */
const EDIT_FIELDS: { key: ImportField; kind?: DecimalKind }[] = [
  { key: 'nombre' },
  { key: 'codigo' },
  { key: 'codigo_barras' },
  { key: 'precio_venta', kind: 'money' },
  { key: 'precio_compra', kind: 'money' },
  { key: 'stock_actual', kind: 'quantity' },
  { key: 'stock_minimo', kind: 'quantity' },
  { key: 'unidad' },
  { key: 'categoria_nombre' },
  { key: 'descripcion' },
];

function RowEditor({ row, onDone }: { row: StagedRow; onDone: () => void }) {
  const update = useUpdateStagedRow();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      EDIT_FIELDS.map((f) => {
        const v = row.datos[f.key];
        return [f.key, v === null ? '' : typeof v === 'number' ? decimalText(v, f.kind) : String(v)];
      }),
    ),
  );
  const [activo, setActivo] = useState(row.datos.activo ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFormError(null);
    const datos: Record<string, unknown> = { activo };
    const invalid: Record<string, string> = {};
    for (const f of EDIT_FIELDS) {
      const text = values[f.key];
      if (!f.kind) datos[f.key] = text.trim() === '' ? null : text;
      else {
        const r = readDecimal(text, f.kind);
        if (r.ok) datos[f.key] = r.value;
        else invalid[f.key] = r.message;
      }
    }
    if (Object.keys(invalid).length) return setErrors(invalid);
    try {
      await update.mutateAsync({ id: row.id, datos });
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.errors.length) {
        setErrors(Object.fromEntries(err.errors.map((x) => [x.field.replace(/^datos\./, ''), x.message])));
      } else setFormError(errorMessage(err, 'No se pudo guardar la fila.'));
    }
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      {row.errores.length > 0 && (
        <ul className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {row.errores.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        {EDIT_FIELDS.map((f) => (
          <Field key={f.key} id={`row-${f.key}`} label={IMPORT_FIELD_LABELS[f.key]} error={errors[f.key]}>
            <Input
              id={`row-${f.key}`}
              inputMode={f.kind ? 'decimal' : undefined}
              autoComplete={f.kind ? 'off' : undefined}
              value={values[f.key]}
              aria-invalid={Boolean(errors[f.key])}
              onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            />
          </Field>
        ))}
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300"
          checked={activo}
          onChange={(e) => setActivo(e.target.checked)}
        />
        Activo
      </label>
      {formError && <ErrorNote>{formError}</ErrorNote>}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" loading={update.isPending}>
          Guardar fila
        </Button>
      </div>
    </form>
  );
}

/** Step 4: the staged rows, with their errors, editable one by one before confirming. */
function ReviewStep({
  summary,
  onConfirmed,
  onCancel,
}: {
  summary: StagedSummary;
  onConfirmed: (r: ImportConfirmResult) => void;
  onCancel: () => void;
}) {
  const { formatting } = useBusiness();
  const [estado, setEstado] = useState<'' | 'validos' | 'con_errores'>(summary.con_errores ? 'con_errores' : '');
  const [page, setPage] = useState(0);
  const rows = useStagedRows(estado, page, true);
  const confirm = useConfirmImport();
  const [editing, setEditing] = useState<StagedRow | null>(null);
  const [createCategories, setCreateCategories] = useState(true);
  const [overwrite, setOverwrite] = useState(true);
  const [stockVacio, setStockVacio] = useState<ImportEmptyStock>('cero');
  const [error, setError] = useState<string | null>(null);
  const [cancelOpen, setCancelOpen] = useState(false);
  const errorsFile = useErrorsDownload();
  const willApply = summary.nuevos + (overwrite ? summary.actualizaciones : 0);

  return (
    <div className="space-y-4">
      <Summary s={summary} />
      <Tabs
        label="Filas a revisar"
        value={estado}
        onChange={(v) => {
          setEstado(v);
          setPage(0);
        }}
        tabs={[
          { value: '', label: 'Todas', count: summary.total },
          { value: 'validos', label: 'Válidas', count: summary.validos },
          { value: 'con_errores', label: 'Con errores', count: summary.con_errores },
        ]}
      />
      {rows.isLoading ? (
        <RowsSkeleton rows={3} />
      ) : rows.error ? (
        <ErrorNote>{errorMessage(rows.error, 'No se pudieron cargar las filas.')}</ErrorNote>
      ) : (
        <div>
          <ul
            className="max-h-80 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
            aria-label="Productos a importar"
          >
            {(rows.data?.rows ?? []).map((r) => (
              <li key={r.id} className={cn('flex items-start gap-3 px-3 py-2', r.errores.length > 0 && 'bg-red-50/60')}>
                <span className="mt-0.5 w-12 shrink-0 text-xs text-slate-400">Fila {r.fila}</span>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="truncate text-sm font-medium text-slate-900">{r.nombre ?? 'Sin nombre'}</span>
                    <Badge color={r.accion === 'nuevo' ? 'green' : 'blue'}>
                      {r.accion === 'nuevo' ? 'Nuevo' : 'Actualiza'}
                    </Badge>
                  </div>
                  <p className="text-xs text-slate-500">
                    {[
                      r.codigo,
                      r.precio_venta !== null ? formatMoney(r.precio_venta, formatting) : null,
                      r.stock_actual !== null ? `stock ${formatNumber(r.stock_actual, formatting)}` : null,
                      r.datos.categoria_nombre,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  {r.errores.map((e) => (
                    <p key={e} className="text-xs text-red-700">
                      {e}
                    </p>
                  ))}
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Editar fila ${r.fila}`}
                  title="Editar"
                  onClick={() => setEditing(r)}
                >
                  <Pencil className="h-4 w-4" />
                </Button>
              </li>
            ))}
            {(rows.data?.rows ?? []).length === 0 && (
              <li className="px-3 py-6 text-center text-sm text-slate-500">No hay filas en esta vista.</li>
            )}
          </ul>
          <Pager
            page={page}
            pageSize={STAGED_PAGE}
            total={rows.data?.total ?? 0}
            onPage={setPage}
            label="filas"
            one="fila"
          />
        </div>
      )}
      <fieldset className="space-y-2">
        <legend className="sr-only">Opciones</legend>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={overwrite}
            onChange={(e) => setOverwrite(e.target.checked)}
          />
          Actualizar los productos existentes (por código)
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={createCategories}
            onChange={(e) => setCreateCategories(e.target.checked)}
          />
          Crear las categorías que no existen
        </label>
      </fieldset>
      {summary.nuevos_sin_stock > 0 && (
        <fieldset className="space-y-2 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-800">
            {summary.nuevos_sin_stock === 1
              ? '1 producto nuevo no trae stock'
              : `${formatNumber(summary.nuevos_sin_stock, formatting)} productos nuevos no traen stock`}
          </legend>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="radio"
              name="stock-vacio"
              className="h-4 w-4"
              checked={stockVacio === 'cero'}
              onChange={() => setStockVacio('cero')}
            />
            Empezar con stock 0 y controlarlo
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="radio"
              name="stock-vacio"
              className="h-4 w-4"
              checked={stockVacio === 'sin_control'}
              onChange={() => setStockVacio('sin_control')}
            />
            No controlar su stock (se venden sin descontar)
          </label>
          <p className="text-xs text-slate-500">
            Los productos existentes sin stock en la lista conservan el que tienen.
          </p>
        </fieldset>
      )}
      {summary.con_errores > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm text-amber-800">
            <AlertTriangle className="h-4 w-4" aria-hidden />
            Las filas con errores no se importan: corregilas o seguí sin ellas.
          </p>
          <Button variant="secondary" loading={errorsFile.busy} onClick={() => errorsFile.run()}>
            <Download className="h-4 w-4" aria-hidden />
            Descargar filas con errores
          </Button>
        </div>
      )}
      {errorsFile.error && <ErrorNote>{errorsFile.error}</ErrorNote>}
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => setCancelOpen(true)}>
          Cancelar importación
        </Button>
        <Button
          loading={confirm.isPending}
          disabled={willApply === 0}
          onClick={async () => {
            setError(null);
            try {
              onConfirmed(
                await confirm.mutateAsync({
                  crear_categorias_nuevas: createCategories,
                  sobrescribir_existentes: overwrite,
                  stock_vacio: stockVacio,
                }),
              );
            } catch (e) {
              setError(errorMessage(e, 'No se pudo confirmar la importación.'));
            }
          }}
        >
          Confirmar importación ({formatNumber(willApply, formatting)})
        </Button>
      </div>
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={`Fila ${editing?.fila ?? ''}`}
        className="sm:max-w-xl"
      >
        {editing && <RowEditor row={editing} onDone={() => setEditing(null)} />}
      </Dialog>
      <ConfirmDialog
        open={cancelOpen}
        onOpenChange={setCancelOpen}
        title="Cancelar importación"
        message="Se descartan las filas leídas; tus productos no cambian."
        confirmLabel="Descartar"
        onConfirm={async () => onCancel()}
      />
    </div>
  );
}

function ResultStep({ r, onClose }: { r: ImportConfirmResult; onClose: () => void }) {
  const { formatting } = useBusiness();
  return (
    <div className="space-y-4" role="status">
      <div className="flex items-center gap-3">
        <CheckCircle2 className="h-8 w-8 text-emerald-600" aria-hidden />
        <p className="text-lg font-semibold text-slate-900">Importación terminada</p>
      </div>
      <ul className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <li className="rounded-lg border border-slate-200 p-3">
          Creados <strong className="block text-xl">{formatNumber(r.creados, formatting)}</strong>
        </li>
        <li className="rounded-lg border border-slate-200 p-3">
          Actualizados <strong className="block text-xl">{formatNumber(r.actualizados, formatting)}</strong>
        </li>
        <li className="rounded-lg border border-slate-200 p-3">
          Omitidos <strong className="block text-xl">{formatNumber(r.omitidos, formatting)}</strong>
        </li>
        <li className="rounded-lg border border-slate-200 p-3">
          Categorías nuevas <strong className="block text-xl">{formatNumber(r.categorias_creadas, formatting)}</strong>
        </li>
      </ul>
      {r.errores.length > 0 && (
        <div>
          <p className="mb-1 text-sm font-medium text-slate-700">Filas no importadas</p>
          <ul className="max-h-40 overflow-y-auto rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {r.errores.map((e) => (
              <li key={e.fila}>
                Fila {e.fila}: {e.mensaje}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex justify-end">
        <Button onClick={onClose}>Ver productos</Button>
      </div>
    </div>
  );
}

function Wizard({ onClose }: { onClose: () => void }) {
  const { formatting } = useBusiness();
  const importApi = useImportApi();
  const existing = useImportSummary(true);
  const cancel = useCancelImport();
  const [step, setStep] = useState<Step>('archivo');
  const [file, setFile] = useState<File | null>(null);
  const [sheets, setSheets] = useState<ImportSheetsResult | null>(null);
  const [hoja, setHoja] = useState<string>('');
  const [uploaded, setUploaded] = useState<ColumnsRead | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportConfirmResult | null>(null);
  const [dragging, setDragging] = useState(false);
  const [resume, setResume] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const busy = progress !== null;

  const pick = (f: File | undefined | null) => {
    setError(null);
    if (!f) return;
    if (f.size > IMPORT_MAX_BYTES) {
      setError('El archivo supera el máximo de 10 MB.');
      return;
    }
    setFile(f);
  };

  const run = async <T,>(fn: (onProgress: (f: number) => void) => Promise<T>): Promise<T | null> => {
    setError(null);
    setProgress(0);
    try {
      return await fn(setProgress);
    } catch (e) {
      setError(errorMessage(e, 'No se pudo leer el archivo.'));
      return null;
    } finally {
      setProgress(null);
    }
  };

  const stage = async (sheet: string | undefined, mapeo?: Record<string, string | null>) => {
    setError(null);
    setProgress(0);
    try {
      const r = await importApi.upload(file!, sheet, mapeo, setProgress);
      setUploaded({
        columnas: r.columnas,
        columnas_originales: r.columnas_originales,
        columnas_archivo: r.columnas_archivo,
        summary: r,
      });
      setStep('columnas');
      void existing.refetch();
    } catch (e) {
      // Columns it could not recognise: the column step says which, so they can be mapped by hand.
      if (e instanceof UploadError && Array.isArray(e.body.columnas_originales)) {
        setUploaded({
          columnas: (e.body.columnas ?? []) as ColumnsRead['columnas'],
          columnas_originales: e.body.columnas_originales as string[],
          columnas_archivo: e.body.columnas_archivo as ColumnsRead['columnas_archivo'],
        });
        setStep('columnas');
      } else setError(errorMessage(e, 'No se pudo leer el archivo.'));
    } finally {
      setProgress(null);
    }
  };

  const readSheets = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError('Elegí un archivo .xlsx o .csv.');
      return;
    }
    const r = await run((p) => importApi.sheets(file, p));
    if (!r) return;
    setSheets(r);
    const first = r.hojas.find((h) => h.filas > 0) ?? r.hojas[0];
    setHoja(first.nombre);
    if (r.hojas.length > 1) setStep('hoja');
    else await stage(undefined);
  };

  const summary: StagedSummary | null = existing.data && existing.data.archivo ? existing.data : null;

  // A staging left from before: continue it or start again.
  if (step === 'archivo' && summary && !resume && !file) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          Tenés una importación sin terminar: <strong>{summary.archivo}</strong> (hoja {summary.hoja},{' '}
          {formatNumber(summary.total, formatting)} filas).
        </p>
        <div className="flex flex-wrap justify-end gap-3">
          <Button
            variant="secondary"
            loading={cancel.isPending}
            onClick={async () => {
              await cancel.mutateAsync();
              setResume(true);
            }}
          >
            Descartarla y empezar otra
          </Button>
          <Button onClick={() => setStep('revision')}>Continuar la revisión</Button>
        </div>
      </div>
    );
  }

  return (
    <div>
      <Stepper step={step} />
      {step === 'archivo' && (
        <form onSubmit={readSheets} className="space-y-4">
          <div
            onDragOver={(e: DragEvent) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e: DragEvent) => {
              e.preventDefault();
              setDragging(false);
              pick(e.dataTransfer.files[0]);
            }}
            className={cn(
              'flex flex-col items-center justify-center rounded-xl border-2 border-dashed px-4 py-8 text-center',
              dragging ? 'border-blue-500 bg-blue-50' : 'border-slate-300',
            )}
          >
            <FileSpreadsheet className="mb-2 h-10 w-10 text-slate-400" aria-hidden />
            <p className="text-sm text-slate-700">Arrastrá tu lista de precios acá o</p>
            <Button variant="secondary" className="mt-2" onClick={() => inputRef.current?.click()}>
              <Upload className="h-4 w-4" aria-hidden />
              Elegir archivo
            </Button>
            <label htmlFor="import-file" className="sr-only">
              Archivo de Excel o CSV
            </label>
            <input
              ref={inputRef}
              id="import-file"
              type="file"
              accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
              className="sr-only"
              onChange={(e) => pick(e.target.files?.[0])}
            />
            <p className="mt-3 text-xs text-slate-500">
              Excel (.xlsx) o CSV, hasta 10 MB y 50.000 filas. Los encabezados pueden estar debajo de un título.
            </p>
            {file && (
              <p className="mt-3 text-sm font-medium text-slate-900">
                {file.name} · {formatNumber(file.size / 1024, formatting, 0)} KB
              </p>
            )}
          </div>
          <details className="text-sm text-slate-600">
            <summary className="cursor-pointer font-medium text-slate-700">¿Qué columnas reconoce?</summary>
            <p className="mt-2">
              Nombre (o Producto, Artículo, o Descripción si no hay Nombre) y Precio de venta (o Precio, PVP) son
              obligatorias para los productos nuevos. También: Código (SKU), Código de barras (EAN), Costo, Stock, Stock
              mínimo, Unidad, Categoría (Rubro) y Activo. Un código o código de barras que ya existe actualiza ese
              producto, solo en las columnas del archivo. Una lista sin nombre, con Código o EAN, solo actualiza: con
              EAN y Costo cambian solo los costos.
            </p>
          </details>
          {busy && <Progress fraction={progress} label="Subiendo el archivo…" />}
          {error && <ErrorNote>{error}</ErrorNote>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={busy} disabled={!file}>
              Continuar
            </Button>
          </div>
        </form>
      )}

      {step === 'hoja' && sheets && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void stage(hoja);
          }}
          className="space-y-4"
        >
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-700">¿Qué hoja tiene los productos?</legend>
            <div className="space-y-2">
              {sheets.hojas.map((h) => (
                <label
                  key={h.nombre}
                  className={cn(
                    'flex cursor-pointer items-center justify-between gap-3 rounded-lg border px-3 py-2 text-sm',
                    hoja === h.nombre ? 'border-blue-500 bg-blue-50' : 'border-slate-300',
                  )}
                >
                  <span className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="hoja"
                      value={h.nombre}
                      checked={hoja === h.nombre}
                      onChange={() => setHoja(h.nombre)}
                    />
                    {h.nombre}
                  </span>
                  <span className="text-slate-500">
                    {formatNumber(h.filas, formatting)} {h.filas === 1 ? 'fila' : 'filas'}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          {busy && <Progress fraction={progress} label="Subiendo el archivo…" />}
          {error && <ErrorNote>{error}</ErrorNote>}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={() => setStep('archivo')}>
              Volver
            </Button>
            <Button type="submit" loading={busy}>
              Leer esta hoja
            </Button>
          </div>
        </form>
      )}

      {step === 'columnas' && uploaded && (
        <div className="space-y-4">
          <ColumnsStep
            key={JSON.stringify(uploaded.columnas)}
            result={uploaded}
            busy={busy}
            onApply={(mapeo) => void stage(hoja || undefined, mapeo)}
            onNext={() => setStep('revision')}
          />
          {busy && <Progress fraction={progress} label="Subiendo el archivo…" />}
          {error && <ErrorNote>{error}</ErrorNote>}
        </div>
      )}

      {step === 'revision' &&
        (summary ? (
          <ReviewStep
            summary={summary}
            onConfirmed={(r) => {
              setResult(r);
              setStep('resultado');
            }}
            onCancel={async () => {
              await cancel.mutateAsync();
              onClose();
            }}
          />
        ) : existing.isFetching ? (
          <RowsSkeleton rows={3} />
        ) : (
          <ErrorNote>No hay una importación en curso.</ErrorNote>
        ))}

      {step === 'resultado' && result && <ResultStep r={result} onClose={onClose} />}
    </div>
  );
}

/** The product import (SPEC §4): file, sheet, columns, review and edit, then confirm or cancel. */
export function ImportWizardDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Importar productos"
      description="Desde una planilla de Excel o un CSV."
      className="sm:max-w-3xl"
    >
      {open && <Wizard onClose={onClose} />}
    </Dialog>
  );
}
