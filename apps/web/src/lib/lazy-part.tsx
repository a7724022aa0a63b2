import { useEffect, useState, type ComponentType } from 'react';

export type LazyPart<P> = ComponentType<P> & {
  /** Starts loading (once); resolves with the component. A failed load may be tried again. */
  preload: () => Promise<ComponentType<P>>;
  /** The component if it has loaded. */
  loaded: () => ComponentType<P> | undefined;
};

const parts: { preload: () => Promise<unknown> }[] = [];

/**
 * A piece of the shell that the first screen does not show (a menu's items, a dialog): its code
 * loads when it is first rendered, or earlier with `preload()`. Unlike `React.lazy`, a load that
 * failed (offline) is tried again, and it renders nothing meanwhile instead of suspending.
 */
export function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPart<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (m) => (loaded = m.default),
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  function Part(props: P) {
    const [Loaded, setLoaded] = useState(() => loaded);
    useEffect(() => {
      if (!Loaded) preload().then((c) => setLoaded(() => c), warn);
    }, [Loaded]);
    return Loaded ? <Loaded {...props} /> : null;
  }
  parts.push({ preload });
  return Object.assign(Part, { preload, loaded: () => loaded });
}

export function warn(e: unknown) {
  console.warn('No se pudo cargar una parte de la pantalla', e);
}

/** Loads every part: the offline POS keeps what the page has loaded, so the shell works offline too. */
export function preloadAllParts() {
  return Promise.allSettled(parts.map((p) => p.preload()));
}
