import { customType } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id, as text (it does not fit a JS number's exact range forever). */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });
