import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCreatePath, useDataProvider, useRedirect, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../feedback';
import { useDeclaration } from '../DeclarationContext';

/**
 * A field named at the start of the server's 400 message (`"email: must be a valid email
 * address"`) is marked on its input as well as in the alert.
 */
export function fieldErrorsOf(message: string, fields: readonly string[]): Record<string, string> | undefined {
  const match = /^([\w.]+): (.+)$/.exec(message);
  if (!match || !fields.includes(match[1])) return undefined;
  return { [match[1]]: match[2] };
}

/**
 * Saves a declared form through the dataProvider (its create or update route), shows the
 * server's message as the alert, and goes where the declaration says (the list by default).
 */
export function useDeclaredSave(mode: 'create' | 'edit', previousData?: RaRecord, fields: readonly string[] = []) {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const target = declaration.forms?.[mode]?.redirect ?? 'list';

  return useCallback(
    async (values: FieldValues) => {
      alerts.loading();
      try {
        const result =
          mode === 'edit'
            ? await dataProvider.update(resource, { id: previousData!.id, data: values, previousData: previousData! })
            : await dataProvider.create(resource, { data: values });
        const message = (result.meta as { message?: string } | undefined)?.message;
        await queryClient.invalidateQueries({ queryKey: [resource] });
        const record = result.data as RaRecord;
        const text = message ?? translate(mode === 'edit' ? 'app.form.saved' : 'app.form.created');
        if (target) {
          // Raised for the page the redirect leads to, so that route change keeps it.
          alerts.success(text, { keepFor: createPath({ resource, type: target, id: record.id }) });
          redirect(target, resource, record.id, record);
        } else {
          alerts.success(text);
        }
        return undefined;
      } catch (error) {
        const message = failureText(error);
        alerts.error(message);
        return fieldErrorsOf(message, fields);
      }
    },
    [mode, dataProvider, resource, previousData, queryClient, target, redirect, createPath, translate, fields],
  );
}
