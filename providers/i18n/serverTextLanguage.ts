/** The shape of a language's catalogue of server texts (see serverTexts.ts), apart so each catalogue can name it. */

/** English text or pattern → the same in another language; `{name}` marks a variable part. */
export type ServerTextCatalogue = Readonly<Record<string, string>>;

export interface ServerTextLanguage {
  texts: ServerTextCatalogue;
  /** How a field path and its problem are joined: ": " in English, " : " in French. */
  fieldSeparator: string;
  /** How the problems of one answer are joined: "; " in English, " ; " in French. */
  listSeparator: string;
}
