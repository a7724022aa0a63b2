import { Link } from 'react-router';

export default function NotFound() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-6 text-center">
      <p className="text-sm font-semibold text-blue-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold">No encontramos esta página</h1>
      <Link to="/" className="mt-6 text-sm font-medium text-blue-600 hover:underline">
        Volver al inicio
      </Link>
    </div>
  );
}
