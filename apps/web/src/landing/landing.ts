import './landing.css';

/**
 * Mobile menu toggle for the static landing and legal pages. This is the only script those pages load:
 * the menu button (aria-controls → the nav) shows or hides the nav below the `md` breakpoint.
 */
const button = document.querySelector<HTMLButtonElement>('[data-menu-toggle]');
const menu = button ? document.getElementById(button.getAttribute('aria-controls') ?? '') : null;

if (button && menu) {
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? 'Cerrar menú' : 'Abrir menú');
    menu.toggleAttribute('data-open', open);
  };

  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));

  // Following a link (e.g. an in-page anchor) closes the menu.
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) setOpen(false);
  });

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && button.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      button.focus();
    }
  });
}
