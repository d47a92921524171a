/**
 * Errors a route throws on purpose. The app's error handler turns them into `{ message }` with
 * their status; anything else becomes a 500 whose details stay in the log.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields sent beside `message` (e.g. `retryAfterSeconds`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The exact texts the console reacts to (spec section 8). Do not reword them. */
export const INVALID_TOKEN_MESSAGE = 'Invalid JWT token';
export const ACCESS_DENIED_MESSAGE = 'Resource Access not provided';

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorized = (message = INVALID_TOKEN_MESSAGE) => new HttpError(401, message);
export const forbidden = (message = ACCESS_DENIED_MESSAGE) => new HttpError(403, message);
export const notFound = (what = 'Record') => new HttpError(404, `${what} not found`);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new HttpError(429, message, { retryAfterSeconds });
export const serviceUnavailable = (message: string) => new HttpError(503, message);
