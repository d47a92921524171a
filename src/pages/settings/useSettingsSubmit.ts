import { useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../../providers/alerts';
import type { Saved } from '../../../providers/http';
import { failureText } from '../../framework/feedback';
import { fieldErrorsOf } from './formErrors';

/**
 * The `onSubmit` of a settings group's form: saves the values, hands the saved group on and says
 * so; a refusal is shown in the alert and, for the parts naming the form's `fields`, on their inputs.
 */
export function useSettingsSubmit<G>(
  save: (values: FieldValues) => Promise<Saved<G>>,
  onSaved: (group: G) => void,
  fields: readonly string[],
) {
  const translate = useTranslate();
  return async (values: FieldValues) => {
    alerts.loading();
    try {
      const result = await save(values);
      onSaved(result.data);
      alerts.success(result.message ?? translate('app.form.saved'));
      return undefined;
    } catch (error) {
      const message = failureText(error);
      alerts.error(message);
      return fieldErrorsOf(message, fields);
    }
  };
}
