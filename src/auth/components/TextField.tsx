import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

type NativeProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name'>;

export interface TextFieldProps extends NativeProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  /** Something inside the input's box, after it (the password visibility toggle). */
  adornment?: ReactNode;
}

/** A labelled input with its hint and its error underneath, wired for assistive technology. */
export function TextField({ label, name, value, onChange, error, hint, adornment, id, ...inputProps }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? `${name}-${generatedId}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`auth-field${error ? ' auth-field-invalid' : ''}`}>
      <label className="auth-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="auth-input-box">
        <input
          {...inputProps}
          id={inputId}
          name={name}
          className="auth-input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        {adornment}
      </div>
      {hint && (
        <p className="auth-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="auth-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
