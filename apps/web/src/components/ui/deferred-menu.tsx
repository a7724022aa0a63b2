import { useState, type ReactNode } from 'react';
import { warn, type LazyPart } from '@/lib/lazy-part';

export type MenuTrigger = { className: string; 'aria-label': string; children: ReactNode };
export type MenuProps = { trigger: MenuTrigger; defaultOpen: boolean };

/**
 * A dropdown menu whose code (Radix's menu, its items) loads when the user reaches for it:
 * hovering or focusing the button starts the load, clicking opens the menu once it is in. Until
 * then the button is a plain one with the same look, so the first screen does not pay for menus.
 */
export function DeferredMenu<P extends object>({
  part: Menu,
  trigger,
  props,
}: {
  part: LazyPart<P & MenuProps>;
  trigger: MenuTrigger;
  props: P;
}) {
  // The real menu replaces the button only on a click: swapping it on hover or focus would take
  // the focus away from under the user.
  const [real, setReal] = useState(() => Boolean(Menu.loaded()));
  const [openFirst, setOpenFirst] = useState(false);
  if (real) return <Menu {...props} trigger={trigger} defaultOpen={openFirst} />;
  const preload = () => void Menu.preload().catch(() => undefined);
  const open = () =>
    Menu.preload().then(() => {
      setOpenFirst(true);
      setReal(true);
    }, warn);
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      className={trigger.className}
      aria-label={trigger['aria-label']}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={open}
    >
      {trigger.children}
    </button>
  );
}
