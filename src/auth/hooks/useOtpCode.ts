import { useCallback, useRef, useState, type FormEvent } from 'react';
import { t } from '../i18n';

export const OTP_LENGTH = 6;

/**
 * A six-digit code that submits itself once complete. `confirm` returns whether the code was
 * accepted; a refused code is cleared so the next one can be typed straight away.
 */
export function useOtpCode(confirm: (code: string) => Promise<boolean>) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const busy = useRef(false);

  const send = useCallback(
    async (value: string) => {
      if (busy.current) return;
      busy.current = true;
      try {
        if (!(await confirm(value))) setCode('');
      } finally {
        busy.current = false;
      }
    },
    [confirm],
  );

  const onChange = (value: string) => {
    const digits = value.replace(/\D/g, '').slice(0, OTP_LENGTH);
    setCode(digits);
    setError(undefined);
    if (digits.length === OTP_LENGTH && digits !== code) void send(digits);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== OTP_LENGTH) setError(t('auth.validation.codeIncomplete'));
    else void send(code);
  };

  return { code, error, onChange, onSubmit };
}
