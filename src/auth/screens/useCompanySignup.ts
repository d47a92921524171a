import { useEffect, useState } from 'react';
import { companySignupOpen } from './companyCalls';

/** Whether company sign-up is open on this server: null while it is asked, then true or false. */
export function useCompanySignup(): boolean | null {
  const [open, setOpen] = useState<boolean | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    void companySignupOpen(controller.signal).then((answer) => {
      if (!controller.signal.aborted) setOpen(answer);
    });
    return () => controller.abort();
  }, []);
  return open;
}
