/**
 * Password rules, shared by the console's forms and the server's checks so both say the same.
 * A company may set its own policy (its service settings, common/settings.ts) within the bounds
 * below; without one the instance default applies, which is also what onboarding and the first
 * company's admin get. Plain TypeScript on purpose: the sign-in screens import it.
 *
 * Every password holds a letter, is at most 128 characters long and does not start or end with a
 * space, whatever the policy; the policy adds its minimum length and the kinds of character it asks for.
 */
export interface PasswordPolicy {
  minLength: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireDigit: boolean;
  requireSymbol: boolean;
}

/** The instance default's minimum length. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/** The lowest minimum length a company may choose. */
export const PASSWORD_MIN_LENGTH_FLOOR = 8;

/** The instance default: at least 10 characters, letters and digits. */
export const DEFAULT_PASSWORD_POLICY: Readonly<PasswordPolicy> = Object.freeze({
  minLength: PASSWORD_MIN_LENGTH,
  requireUppercase: false,
  requireLowercase: false,
  requireDigit: true,
  requireSymbol: false,
});

/** A kind of character a policy asks for. */
export type PasswordCharacterRule = 'letter' | 'uppercase' | 'lowercase' | 'digit' | 'symbol';

const PATTERNS: Record<PasswordCharacterRule, RegExp> = {
  letter: /\p{L}/u,
  uppercase: /\p{Lu}/u,
  lowercase: /\p{Ll}/u,
  digit: /\p{Nd}/u,
  // Anything printable that is neither a letter, a digit nor a space: punctuation, signs, emoji.
  symbol: /[^\p{L}\p{N}\s]/u,
};

const CHARACTER_NAMES: Record<PasswordCharacterRule, string> = {
  letter: 'a letter',
  uppercase: 'an uppercase letter',
  lowercase: 'a lowercase letter',
  digit: 'a digit',
  symbol: 'a symbol',
};

/**
 * The kinds of character the policy asks for, in the order they are told. A letter is always
 * asked for; an uppercase or lowercase rule says which letter.
 */
export function requiredCharacters(policy: PasswordPolicy): PasswordCharacterRule[] {
  const kinds: PasswordCharacterRule[] = [];
  if (policy.requireUppercase) kinds.push('uppercase');
  if (policy.requireLowercase) kinds.push('lowercase');
  if (!policy.requireUppercase && !policy.requireLowercase) kinds.push('letter');
  if (policy.requireDigit) kinds.push('digit');
  if (policy.requireSymbol) kinds.push('symbol');
  return kinds;
}

/** Whether the policy asks exactly for "letters and digits" (the default's wording). */
export function asksLettersAndDigits(kinds: readonly PasswordCharacterRule[]): boolean {
  return kinds.length === 2 && kinds[0] === 'letter' && kinds[1] === 'digit';
}

export interface PasswordCheck {
  tooShort: boolean;
  tooLong: boolean;
  /** The kinds of character asked for that the password lacks. */
  missing: PasswordCharacterRule[];
  /** Starts or ends with a space. */
  edgeSpace: boolean;
}

export function checkPassword(password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): PasswordCheck {
  return {
    tooShort: [...password].length < policy.minLength,
    tooLong: [...password].length > PASSWORD_MAX_LENGTH,
    missing: requiredCharacters(policy).filter((kind) => !PATTERNS[kind].test(password)),
    edgeSpace: password.trim() !== password,
  };
}

/** "a, b and c". */
export function listInWords(items: readonly string[], and = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

/**
 * What the password lacks under the policy, as one sentence listing every missing part
 * ("Password must be at least 12 characters long and contain an uppercase letter and a symbol"),
 * or null when it is acceptable.
 */
export function passwordProblem(password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): string | null {
  const check = checkPassword(password, policy);
  if (check.tooLong) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  const parts: string[] = [];
  if (check.tooShort) parts.push(`be at least ${policy.minLength} characters long`);
  if (check.missing.length > 0) {
    const kinds = requiredCharacters(policy);
    parts.push(
      `contain ${asksLettersAndDigits(kinds) ? 'both letters and digits' : listInWords(check.missing.map((kind) => CHARACTER_NAMES[kind]))}`,
    );
  }
  if (parts.length > 0) return `Password must ${parts.join(' and ')}`;
  if (check.edgeSpace) return 'Password must not start or end with a space';
  return null;
}

/** The policy in one sentence: "At least 12 characters, with an uppercase letter, a digit and a symbol". */
export function describePasswordPolicy(policy: PasswordPolicy): string {
  const kinds = requiredCharacters(policy);
  const wanted = asksLettersAndDigits(kinds) ? 'letters and digits' : listInWords(kinds.map((kind) => CHARACTER_NAMES[kind]));
  return `At least ${policy.minLength} characters, with ${wanted}`;
}

/**
 * A policy as an answer carries it (`passwordPolicy` of a token check, GET /settings/password-policy),
 * read leniently: a field missing or out of bounds is the default's, so a server that sends no
 * policy gets the default rules.
 */
export function readPasswordPolicy(value: unknown): PasswordPolicy {
  const given = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const flag = (key: Exclude<keyof PasswordPolicy, 'minLength'>) =>
    typeof given[key] === 'boolean' ? (given[key] as boolean) : DEFAULT_PASSWORD_POLICY[key];
  const length = given.minLength;
  return {
    minLength:
      typeof length === 'number' && Number.isInteger(length) && length >= PASSWORD_MIN_LENGTH_FLOOR && length <= PASSWORD_MAX_LENGTH
        ? length
        : DEFAULT_PASSWORD_POLICY.minLength,
    requireUppercase: flag('requireUppercase'),
    requireLowercase: flag('requireLowercase'),
    requireDigit: flag('requireDigit'),
    requireSymbol: flag('requireSymbol'),
  };
}
