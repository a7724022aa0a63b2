import { useState } from 'react';
import { ApiError, errorMessage, request } from './api';

type Query = Record<string, string | number | boolean | undefined>;

/** Downloads a spreadsheet export with the session's token, under the name the server gives. */
export async function downloadFile(path: string, query: Query) {
  const { data, headers } = await request<Blob>(path, { query });
  if (!(data instanceof Blob)) throw new ApiError(500, 'ERROR', 'La descarga no devolvió un archivo.');
  const disposition = headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'exportacion.xlsx';
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An export button's state: busy while downloading, and the Spanish error if it failed. */
export function useDownload(fallback: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (path: string, query: Query = {}) => {
    setBusy(true);
    setError(null);
    try {
      await downloadFile(path, query);
    } catch (e) {
      setError(errorMessage(e, fallback));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
