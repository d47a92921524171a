import { z } from 'zod';

/** Whether the server's data directory is its alone. */
export const dataDirectoryPrivacyAnswer = z.object({
  path: z.string(),
  /** Only the server's account may read or write the directory, and no other may replace it. */
  private: z.boolean(),
  /** What is wrong, in an operator's words, with the command that fixes it; absent when private. */
  problem: z.string().optional(),
});

/** `GET /health`: `{ message: "ok" }`; a signed-in admin also gets `details`. */
export const healthAnswer = z.object({
  message: z.string(),
  /** Only for a fully signed-in admin. */
  details: z.object({ dataDirectory: dataDirectoryPrivacyAnswer }).optional(),
});

/** `GET /ready`: `{ message: "ready" }`; a server not ready answers 503 with what is not. */
export const readyAnswer = z.object({
  message: z.string(),
});
