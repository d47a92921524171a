import { asksLettersAndDigits, listInWords, requiredCharacters, type PasswordPolicy } from '../../common/password-policy';
import type { AuthMessageKey } from '../../providers/i18n/auth-messages';

type Translate = (key: AuthMessageKey, params?: Record<string, string | number>) => string;

/**
 * The company's password rules in one line under a new-password field, in the console's words:
 * "At least 12 characters, with an uppercase letter, a digit and a symbol". Shared by the sign-in
 * screens (their own translate) and the signed-in console's forms (react-admin's).
 */
export function passwordRulesHint(policy: PasswordPolicy, translate: Translate): string {
  const kinds = requiredCharacters(policy);
  const wanted = asksLettersAndDigits(kinds)
    ? translate('auth.passwordRules.lettersAndDigits')
    : listInWords(
        kinds.map((kind) => translate(`auth.passwordRules.${kind}`)),
        translate('auth.passwordRules.and'),
      );
  return translate('auth.passwordRules.hint', { count: policy.minLength, kinds: wanted });
}
