/*
 * The last element focused outside any dialog: what opened the dialog that is open now. Radix
 * restores the element focused when the dialog mounted, which is a field inside it when the
 * form autofocuses; so the page remembers it itself. A module of its own, imported by the shell,
 * so that it listens from the start even when a dialog's code is loaded only when it opens.
 */
let lastOutside: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof HTMLElement && !e.target.closest('[role="dialog"], [role="alertdialog"]')) {
      lastOutside = e.target;
    }
  });
}

export const lastFocusedOutsideDialogs = () => lastOutside;
