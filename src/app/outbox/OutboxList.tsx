import { DataTable, DateField, List } from 'react-admin';

/** Every mail the server composed for the company, newest first (the server's order). */
export default function OutboxList() {
  return (
    <List perPage={25} exporter={false}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="createdAt" disableSort>
          <DateField source="createdAt" showTime />
        </DataTable.Col>
        <DataTable.Col source="toAddress" disableSort />
        <DataTable.Col source="subject" disableSort />
        <DataTable.Col source="kind" disableSort />
        <DataTable.Col source="status" disableSort />
      </DataTable>
    </List>
  );
}
