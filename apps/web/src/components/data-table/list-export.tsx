import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ErrorNote } from '@/components/ui/misc';
import { useDownload } from '@/lib/download';

/**
 * A list's "Exportar": the button (for the page header) that downloads `path` with the list's
 * search and filters, and the note that says why it failed (for under the header).
 */
export function useListExport(path: string, query: Record<string, string | undefined>) {
  const exporter = useDownload('No se pudo exportar la lista.');
  return {
    button: (
      <Button variant="secondary" loading={exporter.busy} onClick={() => void exporter.run(path, query)}>
        <Download className="h-4 w-4" aria-hidden />
        Exportar
      </Button>
    ),
    error: exporter.error && (
      <div className="mb-4">
        <ErrorNote>{exporter.error}</ErrorNote>
      </div>
    ),
  };
}
