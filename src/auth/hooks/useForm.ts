import { useCallback, useRef, useState } from 'react';
import type { FieldErrors } from '../validation';

export interface FieldBinding {
  name: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

export interface FormApi<T extends Record<string, string>> {
  values: T;
  errors: FieldErrors<T>;
  field: (name: keyof T & string) => FieldBinding;
  setValue: (name: keyof T, value: string) => void;
  check: () => boolean;
  reset: () => void;
}

/**
 * The values and field errors of a small form of text fields. `field(name)` gives what a
 * TextField or PasswordField needs; a field's error goes as soon as it is edited.
 */
export function useForm<T extends Record<string, string>>(initial: T | (() => T), validate: (values: T) => FieldErrors<T>): FormApi<T> {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const initialValues = useRef<T>(values);

  const setValue = useCallback((name: keyof T, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  }, []);

  const field = (name: keyof T & string): FieldBinding => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (value) => setValue(name, value),
  });

  /** Checks every field and shows the problems; true when there are none. */
  const check = (): boolean => {
    const problems = validate(values);
    setErrors(problems);
    return Object.values(problems).every((problem) => !problem);
  };

  const reset = useCallback(() => {
    setValues(initialValues.current);
    setErrors({});
  }, []);

  return { values, errors, field, setValue, check, reset };
}
