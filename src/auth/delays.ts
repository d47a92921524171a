/**
 * The redirect delays of spec section 9, in one place so that tests can drive them with fake
 * timers. The access-denied delay belongs to the http client's error catalogue and is re-exported.
 */
export { ACCESS_DENIED_DELAY_MS } from '../../providers/http';

/** After a password-reset request, back to sign-in. */
export const RESET_REQUEST_REDIRECT_MS = 3000;
/** After a password is created, changed or reset, or a wrong temporary password, back to sign-in. */
export const PASSWORD_REDIRECT_MS = 5000;
