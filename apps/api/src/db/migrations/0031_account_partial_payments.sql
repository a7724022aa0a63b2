-- Receivables and payables paid in parts (issue 14): what has been paid so far; the account is
-- paid (estado pagado) when it reaches the amount. Accounts paid before were paid in full.
ALTER TABLE "finance_accounts" ADD COLUMN "monto_pagado" numeric(14, 2) NOT NULL DEFAULT 0;
--> statement-breakpoint
UPDATE "finance_accounts" SET "monto_pagado" = "monto" WHERE "estado" = 'pagado';
--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_monto_pagado"
  CHECK ("monto_pagado" >= 0 AND "monto_pagado" <= "monto");
