import { Link } from 'react-router';
import { useProducts } from '@/features/products/products.api';
import { useCan } from '@/features/permissions/permissions.api';

/** While a POS search runs, and when it finds nothing (the list alone would just stay closed). */
export function SearchFeedback({ term, searching, found }: { term: string; searching: boolean; found: number }) {
  if (found > 0) return null;
  return (
    <p role="status" className="mt-2 text-sm text-slate-500" data-testid="pos-busqueda-estado">
      {searching
        ? 'Buscando…'
        : `No encontramos productos ni servicios con «${term}». Probá con otra palabra o con el código.`}
    </p>
  );
}

/** A new shop's POS: no products yet, so the way to load them is one click away. */
export function EmptyCatalogHint() {
  const can = useCan();
  const list = useProducts({ limit: 1, offset: 0 });
  if (!list.data || list.data.total > 0) return null;
  return (
    <p className="mt-3 text-sm text-slate-600" data-testid="pos-sin-productos">
      Todavía no cargaste productos.{' '}
      {can('productos', 'editar') ? (
        <>
          <Link to="/products-and-services" className="font-medium text-blue-700 underline">
            Creá uno
          </Link>{' '}
          o{' '}
          <Link to="/products-and-services?importar=1" className="font-medium text-blue-700 underline">
            importalos desde Excel
          </Link>
          .
        </>
      ) : (
        'Pedile a quien administra el negocio que los cargue.'
      )}
    </p>
  );
}
