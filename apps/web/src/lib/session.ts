/** The session persists in browser storage and is restored on load (SPEC §4). */
export interface SessionUser {
  id: string;
  nombre: string;
  apellido: string | null;
  email: string;
}

const TOKEN_KEY = 'mostrador.token';
const USER_KEY = 'mostrador.user';
const BUSINESS_KEY = 'mostrador.business';

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  user(): SessionUser | null {
    try {
      const raw = localStorage.getItem(USER_KEY);
      return raw ? (JSON.parse(raw) as SessionUser) : null;
    } catch {
      return null;
    }
  },
  save(token: string, user: SessionUser) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  },
  saveUser(user: SessionUser) {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  },
  businessId: (): string | null => localStorage.getItem(BUSINESS_KEY),
  setBusinessId(id: string | null) {
    if (id) localStorage.setItem(BUSINESS_KEY, id);
    else localStorage.removeItem(BUSINESS_KEY);
  },
  /** Logout clears local storage (SPEC §2). */
  clear() {
    localStorage.clear();
  },
};
