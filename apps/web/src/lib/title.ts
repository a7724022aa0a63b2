import { useEffect } from 'react';

/** "Punto de venta · Mostrador": each page names itself in the browser tab and history. */
export const pageTitle = (title?: string) => (title ? `${title} · Mostrador` : 'Mostrador');

export function useTitle(title?: string) {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
