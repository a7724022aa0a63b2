import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ColumnDef, Table, Updater, VisibilityState } from '@tanstack/react-table';
import { Check, Columns3 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

const storageKey = (screen: string) => `mostrador.columnas.${screen}`;

function read(screen: string): VisibilityState | null {
  try {
    const raw = localStorage.getItem(storageKey(screen));
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === 'object' ? (parsed as VisibilityState) : null;
  } catch {
    return null;
  }
}

const idOf = <T,>(c: ColumnDef<T, unknown>) =>
  c.id ?? ('accessorKey' in c && typeof c.accessorKey === 'string' ? c.accessorKey : undefined);

/** Which columns show: the columns' defaults, then what the user chose on this screen (localStorage). */
export function useColumnVisibility<T>(screen: string, columns: ColumnDef<T, unknown>[]) {
  const [state, setState] = useState<VisibilityState>(() => {
    const defaults: VisibilityState = {};
    for (const c of columns) {
      const id = idOf(c);
      if (id && c.meta?.defaultHidden) defaults[id] = false;
    }
    return { ...defaults, ...read(screen) };
  });
  const update = (u: Updater<VisibilityState>) =>
    setState((prev) => {
      const next = typeof u === 'function' ? u(prev) : u;
      try {
        localStorage.setItem(storageKey(screen), JSON.stringify(next));
      } catch {
        // Private mode or a full storage: the choice lasts until the page is left.
      }
      return next;
    });
  return [state, update] as const;
}

/** "Columnas": a menu of checkboxes, one per column that can be hidden (keyboard: Radix menu). */
export function ColumnsMenu<T>({ table }: { table: Table<T> }) {
  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide() && !c.columnDef.meta?.actions);
  if (hideable.length < 2) return null;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label="Columnas" title="Columnas">
          <Columns3 className="h-4 w-4" aria-hidden />
          <span className="hidden sm:inline">Columnas</span>
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-48 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold text-slate-500">
            Columnas visibles
          </DropdownMenu.Label>
          {hideable.map((c) => {
            const shown = c.getIsVisible();
            // The last visible column stays: a table without columns says nothing.
            const last = shown && hideable.filter((h) => h.getIsVisible()).length === 1;
            return (
              <DropdownMenu.CheckboxItem
                key={c.id}
                checked={shown}
                disabled={last}
                onCheckedChange={(v) => c.toggleVisibility(v === true)}
                onSelect={(e) => e.preventDefault()}
                className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-slate-700 outline-none data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 data-[highlighted]:bg-slate-100"
              >
                <span className="flex h-4 w-4 items-center justify-center rounded border border-slate-300">
                  <DropdownMenu.ItemIndicator>
                    <Check className="h-3 w-3" aria-hidden />
                  </DropdownMenu.ItemIndicator>
                </span>
                {c.columnDef.meta?.label ?? c.id}
              </DropdownMenu.CheckboxItem>
            );
          })}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
