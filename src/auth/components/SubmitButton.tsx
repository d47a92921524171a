/** The form's main button: disabled, with a busy label, while the call runs. */
export function SubmitButton({ loading, label, busyLabel }: { loading: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="auth-submit" disabled={loading} aria-busy={loading || undefined}>
      {loading ? busyLabel : label}
    </button>
  );
}
