import * as Menu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, Download, FileSpreadsheet, FileText } from 'lucide-react';
import { useState } from 'react';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { useDownload } from '@/lib/download';
import { todayIn } from '@/lib/format';
import { purchasesPath } from './purchases.api';

const item =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100';

/** The month before `YYYY-MM-DD`, as YYYY-MM: the Libro IVA is usually closed for last month. */
const previousMonth = (today: string) => {
  const [y, m] = today.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

/**
 * "Libro IVA Compras": a month picker, the .xlsx of its supplier invoices and the two .txt files
 * the Libro IVA Digital of ARCA imports (comprobantes, alícuotas). Needs ver_costos.
 */
export function LibroIvaComprasButton() {
  const { businessId, formatting } = useBusiness();
  const { verCostos } = useCounterControls();
  const [mes, setMes] = useState(() => previousMonth(todayIn(formatting.timezone)));
  const download = useDownload('No se pudo exportar el Libro IVA Compras.');
  const digital = useDownload('No se pudo descargar el Libro IVA Digital.');
  if (!verCostos) return null;
  const valid = /^\d{4}-\d{2}$/.test(mes);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <Input
          type="month"
          aria-label="Mes del Libro IVA Compras"
          className="max-w-[10rem]"
          value={mes}
          onChange={(e) => setMes(e.target.value)}
        />
        <Button
          variant="secondary"
          className="whitespace-nowrap"
          loading={download.busy}
          disabled={!valid}
          onClick={() => download.run(`${purchasesPath(businessId!)}/libro-iva`, { mes })}
        >
          <FileSpreadsheet className="h-4 w-4" aria-hidden />
          Libro IVA Compras
        </Button>
        <Menu.Root>
          <Menu.Trigger asChild>
            <Button variant="secondary" className="whitespace-nowrap" loading={digital.busy} disabled={!valid}>
              <FileText className="h-4 w-4" aria-hidden />
              Libro IVA Digital (ARCA)
              <ChevronDown className="h-4 w-4" aria-hidden />
            </Button>
          </Menu.Trigger>
          <Menu.Portal>
            <Menu.Content
              align="end"
              sideOffset={4}
              className="z-50 min-w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
            >
              {(['comprobantes', 'alicuotas'] as const).map((parte) => (
                <Menu.Item
                  key={parte}
                  className={item}
                  onSelect={() => void digital.run(`${purchasesPath(businessId!)}/libro-iva-digital/${parte}`, { mes })}
                >
                  <Download className="h-4 w-4" aria-hidden />
                  Compras: {parte === 'comprobantes' ? 'comprobantes' : 'alícuotas'} (.txt)
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Portal>
        </Menu.Root>
      </div>
      {(download.error || digital.error) && (
        <p role="alert" className="text-xs text-red-600">
          {download.error ?? digital.error}
        </p>
      )}
    </div>
  );
}
