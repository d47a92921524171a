/**
 * Lets code outside React (the http client, the auth provider) move the user to another route.
 * The shell registers react-router's navigate; before that, a full page load is used.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;

export function registerNavigator(navigate: Navigate | null): void {
  navigator = navigate;
}

export function navigateTo(path: string, options: { replace?: boolean } = {}): void {
  if (navigator) {
    navigator(path, options);
  } else if (options.replace) {
    window.location.replace(path);
  } else {
    window.location.assign(path);
  }
}

/** A full reload at a path: used after impersonation, as the spec asks. */
export function reloadAt(path: string): void {
  window.location.assign(path);
}
