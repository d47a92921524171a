import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';

/** A chosen file shown through an object URL, released when the file changes or the view goes. */
export function useObjectUrl(file: File | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

export interface ImageFileFieldOptions {
  /** The form value that holds the chosen file, e.g. `logo`. */
  field: string;
  /** The form value that asks for the stored file to be removed, e.g. `removeLogo`. */
  removeFlag: string;
  /**
   * Why this file cannot be sent, in the user's words; null when it may. The server checks the
   * file again by its bytes, so this only spares a pointless upload.
   */
  problemOf: (file: File) => string | null;
  /** When set, files offered are ignored. */
  disabled?: boolean;
}

/**
 * The state and actions of an image file input inside a react-hook-form form: the file chosen
 * (and its preview), the removal of the stored one, and the problem to show under it — the
 * browser-side check's, or else the server's error on the field. Each picker keeps its own look.
 */
export function useImageFileField({ field, removeFlag, problemOf, disabled = false }: ImageFileFieldOptions) {
  const input = useRef<HTMLInputElement>(null);
  const { setValue, clearErrors } = useFormContext();
  const { errors } = useFormState({ name: field });
  const chosen = useWatch({ name: field }) as File | null | undefined;
  const removing = useWatch({ name: removeFlag }) === true;
  const preview = useObjectUrl(chosen);
  const [problem, setProblem] = useState<string | null>(null);

  /** Takes a file offered by the file input or a drop, unless it cannot be sent. */
  const take = (file: File | undefined) => {
    if (!file || disabled) return;
    const wrong = problemOf(file);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    setProblem(null);
    clearErrors(field);
    setValue(field, file, { shouldDirty: true });
    setValue(removeFlag, undefined, { shouldDirty: true });
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again after a removal still counts as a choice.
    event.target.value = '';
    take(file);
  };

  /** Drops the chosen file; `removeStored` also asks for the stored one to be removed. */
  const remove = (removeStored: boolean) => {
    setProblem(null);
    clearErrors(field);
    setValue(field, undefined, { shouldDirty: true });
    setValue(removeFlag, removeStored ? true : undefined, { shouldDirty: true });
  };

  /** Takes back a removal not yet saved. */
  const keep = () => setValue(removeFlag, undefined, { shouldDirty: true });

  const serverProblem = errors[field]?.message;
  const helper = problem ?? (typeof serverProblem === 'string' ? serverProblem : null);

  return {
    /** The hidden file input's ref; `openChooser` clicks it. */
    input,
    openChooser: () => input.current?.click(),
    chosen,
    removing,
    preview,
    /** The problem to show under the picker, or null for its usual rules. */
    helper,
    take,
    choose,
    remove,
    keep,
  };
}
