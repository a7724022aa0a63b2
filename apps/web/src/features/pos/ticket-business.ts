import { useMemo } from 'react';
import { CONDICION_IVA_EMISOR_LABELS } from '@mostrador/shared/facturacion';
import { useBusiness } from '@/app/business-context';
import { useFacturacionModo } from '@/features/facturacion/facturacion.api';
import type { TicketBusiness } from './ticket';

/**
 * The shop as its tickets name it: its name and CUIT, and the fiscal address and IVA condition of
 * its billing setup (GET facturacion/modo, readable by every member who sells). Kept in memory, so
 * a ticket printed without a connection still has them.
 */
export function useTicketBusiness(): TicketBusiness | null {
  const { business } = useBusiness();
  const modo = useFacturacionModo().data;
  return useMemo(
    () =>
      business && {
        nombre: business.nombre,
        cuit: business.cuit,
        domicilio: modo?.domicilio_fiscal ?? null,
        condicionIva: modo?.condicion_iva ? CONDICION_IVA_EMISOR_LABELS[modo.condicion_iva] : null,
      },
    [business, modo],
  );
}
