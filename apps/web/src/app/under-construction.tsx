import { Construction } from 'lucide-react';
import { PageHeader } from '@/components/ui/misc';

export function UnderConstruction({ title }: { title: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <Construction className="h-10 w-10 text-amber-500" aria-hidden />
        <p className="mt-4 font-medium text-slate-800">Este módulo está en construcción</p>
        <p className="mt-1 max-w-md text-sm text-slate-500">
          Estamos terminando esta sección. Mientras tanto podés seguir usando el resto de Mostrador.
        </p>
      </div>
    </div>
  );
}
