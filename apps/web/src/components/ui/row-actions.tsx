import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';

/**
 * The icon buttons at the end of a list row: whatever comes as children, then "Editar {name}" and
 * "Eliminar {name}". A button shows only when it has a handler (`canEdit && (() => …)`).
 */
export function RowActions({
  name,
  onEdit,
  onDelete,
  className,
  children,
}: {
  name: string;
  onEdit?: false | (() => void);
  onDelete?: false | (() => void);
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={cn('flex gap-1', className)}>
      {children}
      {onEdit && (
        <Button variant="ghost" size="icon" aria-label={`Editar ${name}`} title="Editar" onClick={onEdit}>
          <Pencil className="h-4 w-4" />
        </Button>
      )}
      {onDelete && (
        <Button variant="ghost" size="icon" aria-label={`Eliminar ${name}`} title="Eliminar" onClick={onDelete}>
          <Trash2 className="h-4 w-4 text-red-600" />
        </Button>
      )}
    </div>
  );
}
