import { Labeled } from 'react-admin';
import { DeclaredShow } from '../../framework/show/DeclaredShow';
import { MailTextField } from './MailTextField';

/** The outbox's show view: the declared fields, then the text body with its links clickable. */
export default function OutboxShow() {
  return (
    <DeclaredShow>
      <Labeled label="resources.outbox.fields.text">
        <MailTextField />
      </Labeled>
    </DeclaredShow>
  );
}
