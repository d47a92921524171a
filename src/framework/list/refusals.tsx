import { Tooltip } from '@mui/material';
import type { ReactElement } from 'react';
import { useGetIdentity, useTranslate, type RaRecord } from 'react-admin';
import { useDeclarationIfAny } from '../DeclarationContext';
import { stopRowClick } from '../feedback';
import type { Refusal } from '../types';

/** What the resource's declaration refuses of this record for the signed-in user (`refusals`), or null. */
export function useRefusal(kind: 'delete' | 'activation', record: RaRecord | undefined): Refusal | null {
  const declaration = useDeclarationIfAny();
  const rule = declaration?.refusals?.[kind];
  // Only a resource with refusal rules asks who is signed in (one cached query for every row).
  const { identity } = useGetIdentity({ enabled: Boolean(rule) });
  if (!rule || !record) return null;
  return rule(record, { id: identity?.id == null ? null : String(identity.id) });
}

/**
 * The same rules for many records at once (a selection): what the declaration refuses of each,
 * for the signed-in user. Without refusal rules, nothing is refused.
 */
export function useRefusals(): (kind: 'delete' | 'activation', record: RaRecord) => Refusal | null {
  const declaration = useDeclarationIfAny();
  const rules = declaration?.refusals;
  const { identity } = useGetIdentity({ enabled: Boolean(rules?.delete || rules?.activation) });
  return (kind, record) => rules?.[kind]?.(record, { id: identity?.id == null ? null : String(identity.id) }) ?? null;
}

/** A refusal's text. */
export function useRefusalText(): (refusal: Refusal) => string {
  const translate = useTranslate();
  return (refusal) => translate(refusal.key, { smart_count: refusal.count ?? 0 });
}

/**
 * A refused control: disabled in its place, with the reason as its tooltip. A disabled control
 * gets no pointer events, so the tooltip listens on its wrapper; `control` gets the reason for
 * its accessible description.
 */
export function Refused({ refusal, control }: { refusal: Refusal; control: (reason: string) => ReactElement }) {
  const reason = useRefusalText()(refusal);
  return (
    <Tooltip title={reason}>
      <span onClick={stopRowClick} data-refusal={refusal.key}>
        {control(reason)}
      </span>
    </Tooltip>
  );
}
