import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';
import { dialogKeys } from './dialogKeys';

// Every modal dialog of the app lives the same way: modal from the start with one element focused, Esc and the
// browser's cancel dismiss it, Tab stays inside, and focus goes back to what opened it when it closes.

export interface Modal {
  dialogRef: RefObject<HTMLDialogElement | null>;
  onKeyDown: (e: KeyboardEvent<HTMLDialogElement>) => void;
  onCancel: (e: SyntheticEvent<HTMLDialogElement>) => void;
}

/** `focus` picks what has focus when the dialog opens; `dismiss` is what Esc and cancel do. */
export function useModal(dismiss: () => void, focus: (dialog: HTMLDialogElement) => void): Modal {
  const ref = useRef<HTMLDialogElement>(null);
  // Read at open only: the dialog opens once per mount.
  const focusAtOpen = useRef(focus);
  useLayoutEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    focusAtOpen.current(dialog);
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return {
    dialogRef: ref,
    onKeyDown: (e) => dialogKeys(e, ref.current, dismiss),
    onCancel: (e) => {
      e.preventDefault();
      dismiss();
    },
  };
}
