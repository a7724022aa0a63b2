/*
 * What shows while a screen's code loads: the first load of the application, and the move to a
 * screen not opened before (every route is code-split). Plain markup, in the first chunk.
 */
const bar = 'animate-pulse rounded-md bg-slate-200';

/** The content area of a screen: its title and a few blocks. */
export function PageSkeleton() {
  return (
    <div aria-busy="true" data-testid="cargando-pantalla">
      <span className="sr-only">Cargando…</span>
      <div className={`${bar} h-8 w-56`} aria-hidden />
      <div className={`${bar} mt-2 h-4 w-80 max-w-full`} aria-hidden />
      <div className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-hidden>
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className={`${bar} h-24 rounded-xl`} />
        ))}
      </div>
      <div className={`${bar} mt-6 h-64 rounded-xl`} aria-hidden />
    </div>
  );
}

/** The whole application shell (side bar, top bar and content), on the first load. */
export function ShellSkeleton() {
  return (
    <div className="min-h-screen bg-slate-50">
      <aside className="fixed inset-y-0 left-0 hidden w-72 border-r border-slate-200 bg-white p-5 xl:block" aria-hidden>
        <div className={`${bar} h-8 w-36`} />
        {[0, 1, 2, 3, 4, 5, 6].map((i) => (
          <div key={i} className={`${bar} mt-5 h-5 w-44`} />
        ))}
      </aside>
      <div className="xl:pl-72">
        <div className="flex h-16 items-center border-b border-slate-200 bg-white px-4 lg:px-8" aria-hidden>
          <div className={`${bar} h-9 w-48`} />
        </div>
        <main className="mx-auto max-w-7xl px-4 py-6 lg:px-8">
          <PageSkeleton />
        </main>
      </div>
    </div>
  );
}

/** A page outside the shell (sign in, sign up…): a card. */
export function CardSkeleton() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4" aria-busy="true">
      <span className="sr-only">Cargando…</span>
      <div className={`${bar} h-80 w-full max-w-md rounded-xl`} aria-hidden />
    </div>
  );
}
