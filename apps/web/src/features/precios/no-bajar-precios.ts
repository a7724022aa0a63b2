/*
 * «No bajar precios» is chosen on each supplier list; the last choice is remembered on this
 * device, per business (decision 0051), so a shop that never lowers prices ticks it once.
 */
const key = (businessId: string) => `mostrador.no-bajar-precios.${businessId}`;

export const noBajarPrecios = {
  get: (businessId: string | null): boolean => {
    if (!businessId) return false;
    try {
      return localStorage.getItem(key(businessId)) === 'true';
    } catch {
      return false;
    }
  },
  set: (businessId: string | null, on: boolean) => {
    if (!businessId) return;
    try {
      localStorage.setItem(key(businessId), on ? 'true' : 'false');
    } catch {
      // Private mode or storage full: the choice holds for this list only.
    }
  },
};
