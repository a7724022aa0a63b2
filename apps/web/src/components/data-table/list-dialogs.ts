import { useState, type ReactNode } from 'react';

/**
 * The dialogs of a list screen: the form (new, or editing a row), a row's card, the delete
 * confirmation, and the note that says what just happened.
 */
export function useListDialogs<T>() {
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<T | undefined>();
  const [viewing, setViewing] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [notice, setNotice] = useState<ReactNode>(null);
  const openForm = (row?: T) => {
    setEditing(row);
    setFormOpen(true);
  };
  return {
    formOpen,
    setFormOpen,
    editing,
    openForm,
    openNew: () => openForm(),
    viewing,
    setViewing,
    deleting,
    setDeleting,
    notice,
    setNotice,
    /** What a row's buttons do: open its card, and edit or delete it when the user may. */
    rowActions: (canEdit: boolean, canDelete: boolean) => ({
      onView: setViewing,
      onEdit: canEdit && openForm,
      onDelete: canDelete && setDeleting,
    }),
  };
}
