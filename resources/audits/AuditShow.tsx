import { Labeled } from 'react-admin';
import { ChangesDiff } from './ChangesDiff';
import { RowRecordShow } from './RowRecordShow';

/** An audit entry: the declared fields, then its changes as a before/after table. */
export default function AuditShow() {
  return (
    <RowRecordShow>
      <Labeled label="resources.audits.fields.changes" fullWidth>
        <ChangesDiff />
      </Labeled>
    </RowRecordShow>
  );
}
