import { useCallback, useEffect, useRef, type ChangeEvent, type ReactNode } from 'react';

export interface FilePickers {
  openFiles(): void;
  openFolder(): void;
  /** The hidden inputs; render once. */
  inputs: ReactNode;
}

export function useFilePickers(onPick: (list: FileList | null) => void): FilePickers {
  const filesRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Not in React's attribute types; set on the element so folder picking works in every Chromium/Firefox/Safari.
    folderRef.current?.setAttribute('webkitdirectory', '');
  }, []);

  const onChange = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      onPick(event.currentTarget.files);
      // Cleared so choosing the same files again still fires a change.
      event.currentTarget.value = '';
    },
    [onPick],
  );

  return {
    openFiles: () => filesRef.current?.click(),
    openFolder: () => folderRef.current?.click(),
    inputs: (
      <>
        <input ref={filesRef} type="file" multiple hidden onChange={onChange} data-testid="file-input" />
        <input ref={folderRef} type="file" multiple hidden onChange={onChange} data-testid="folder-input" />
      </>
    ),
  };
}
