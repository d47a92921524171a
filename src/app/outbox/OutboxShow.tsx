import { DateField, Labeled, Show, SimpleShowLayout, TextField } from 'react-admin';
import { MailTextField } from './MailTextField';

export default function OutboxShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="subject" />
        <TextField source="toAddress" />
        <DateField source="createdAt" showTime />
        <DateField source="sentAt" showTime emptyText="—" />
        <TextField source="kind" />
        <TextField source="status" />
        <TextField source="error" emptyText="—" />
        <Labeled label="resources.outbox.fields.text">
          <MailTextField />
        </Labeled>
      </SimpleShowLayout>
    </Show>
  );
}
