import { useState } from 'react';

/**
 * The dialogs of a list screen: the form (new, or editing a row), a row's card, the delete
 * confirmation, and the note that says what just happened.
 */
export function useListDialogs<T>() {
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<T | undefined>();
  const [viewing, setViewing] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
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
  };
}
