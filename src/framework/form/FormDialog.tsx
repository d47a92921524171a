import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Form, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import { useFormState, type FieldValues, type Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';
import { formFields } from '../declaration';
import { FieldInput } from '../FieldInput';
import type { AnyResourceDeclaration, FieldDeclaration } from '../types';
import { zodResolver } from '../zodResolver';
import { formRecord, formSchema, FormProblem } from './DeclaredForm';
import { fieldErrorsOf } from './useDeclaredSave';

const NO_RECORD: Partial<RaRecord> = {};

/** Tells the dialog, from inside its form, whether the form holds changes not saved yet. */
function UnsavedChangesWatch({ onChange }: { onChange: (unsaved: boolean) => void }) {
  const { dirtyFields, isSubmitSuccessful } = useFormState();
  const unsaved = Object.keys(dirtyFields).length > 0 && !isSubmitSuccessful;
  useEffect(() => {
    onChange(unsaved);
    // A form no longer shown (the dialog shows what the save answered) holds nothing unsaved.
    return () => onChange(false);
  }, [unsaved, onChange]);
  return null;
}

/**
 * What a save answered: nothing when it was made; else the server's message (shown on the field
 * it names, else as the form's problem), or `false` when it was not made and already said so
 * elsewhere (the alert).
 */
export type FormDialogAnswer = string | false | null | undefined | void;

export interface FormDialogProps<Values extends FieldValues = FieldValues> {
  /** The dialog's title, which names it. */
  title: ReactNode;
  /** Given the checked values; resolves to what the save answered. */
  onSubmit: (values: Values) => Promise<FormDialogAnswer> | FormDialogAnswer;
  onClose: () => void;
  /** What follows a save: closing the dialog unless told otherwise. */
  onSaved?: () => void;
  open?: boolean;
  /** A declared resource whose create or edit fields (and their schema) the dialog edits. */
  of?: AnyResourceDeclaration;
  mode?: 'create' | 'edit';
  /** Declared fields to edit (the declaration's form fields when `of` is given). */
  fields?: readonly FieldDeclaration[];
  /** The resource the fields' labels belong to: the declaration's, else the one in context. */
  resource?: string;
  /** Checks every value before anything is sent; the declared schema when `of` is given. */
  schema?: ZodType;
  /** A check of the form's own, for forms whose values are not the body a schema knows. */
  resolver?: Resolver<FieldValues>;
  /** The values the form starts from, with `defaultValues` (never the record of the page around). */
  record?: Partial<RaRecord>;
  defaultValues?: FieldValues;
  /** The fields a server message may name; the declared fields, else the submitted values' keys. */
  problemFields?: readonly string[];
  /** Translation keys of the buttons. */
  saveLabel?: string;
  savingLabel?: string;
  cancelLabel?: string;
  saveIcon?: ReactNode;
  /** Save is blocked (something else is being changed). */
  busy?: boolean;
  /** Shown in place of the form, under the same title, with its own actions: what a save answered. */
  result?: ReactNode;
  contentSx?: SxProps<Theme>;
  children?: ReactNode;
}

/**
 * A form in a dialog (react-admin's Form, `noValidate`: the schema is the one judge of its values),
 * its inputs given as children or as declared fields; Cancel, Save (blocked while saving) and the
 * form's problem beside them. While a save runs, Save is blocked and the dialog stays open.
 */
export function FormDialog<Values extends FieldValues = FieldValues>({
  title,
  onSubmit,
  onClose,
  onSaved = onClose,
  open = true,
  of,
  mode = 'create',
  fields: givenFields,
  resource: givenResource,
  schema: givenSchema,
  resolver: givenResolver,
  record,
  defaultValues,
  problemFields,
  saveLabel = 'ra.action.save',
  savingLabel,
  cancelLabel = 'ra.action.cancel',
  saveIcon,
  busy = false,
  result,
  contentSx,
  children,
}: FormDialogProps<Values>) {
  const translate = useTranslate();
  const titleId = useId();
  const contextResource = useResourceContext();
  const resource = of?.name ?? givenResource ?? contextResource ?? '';
  const fields = useMemo(() => givenFields ?? (of ? formFields(of, mode) : []), [givenFields, of, mode]);
  const schema = useMemo(() => givenSchema ?? (of ? formSchema(of, mode, fields) : undefined), [givenSchema, of, mode, fields]);
  const resolver = useMemo(() => givenResolver ?? (schema ? zodResolver(schema) : undefined), [givenResolver, schema]);
  // A declared field may take its value from the record (`fromRecord`: ids from a list of objects).
  const initial = useMemo(() => (record ? (formRecord(record as RaRecord, fields) ?? record) : NO_RECORD), [record, fields]);
  const [saving, setSaving] = useState(false);
  // Closing (Cancel, Escape, a click beside it) with unsaved changes asks first, as leaving a page does.
  const unsaved = useRef(false);
  const watchUnsaved = useCallback((value: boolean) => {
    unsaved.current = value;
  }, []);
  const close = () => {
    if (unsaved.current && !window.confirm(translate('ra.message.unsaved_changes'))) return;
    onClose();
  };

  const submit = async (values: FieldValues) => {
    setSaving(true);
    let answer: FormDialogAnswer;
    try {
      answer = await onSubmit(values as Values);
    } finally {
      setSaving(false);
    }
    if (answer === false) return undefined;
    if (answer === null || answer === undefined) {
      onSaved();
      return undefined;
    }
    const names = problemFields ?? (fields.length > 0 ? fields.map((field) => field.source) : Object.keys(values));
    return fieldErrorsOf(answer, names) ?? { root: answer };
  };

  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : close}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      // The form holds the content and the buttons: the content scrolls, the buttons stay in view.
      slotProps={{ paper: { sx: { '& > form': { display: 'flex', flexDirection: 'column', minHeight: 0 } } } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {result ?? (
        <Form record={initial} defaultValues={defaultValues} resolver={resolver} onSubmit={submit} noValidate warnWhenUnsavedChanges>
          <UnsavedChangesWatch onChange={watchUnsaved} />
          <DialogContent sx={contentSx}>
            {fields.map((field) => (
              <FieldInput key={field.source} field={field} resource={resource} />
            ))}
            {children}
          </DialogContent>
          <DialogActions>
            <FormProblem />
            <Button onClick={close} disabled={saving}>
              {translate(cancelLabel)}
            </Button>
            <Button type="submit" variant="contained" disabled={saving || busy} aria-busy={saving} startIcon={saveIcon}>
              {translate(saving && savingLabel ? savingLabel : saveLabel)}
            </Button>
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}
