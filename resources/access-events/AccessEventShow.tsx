import { RowRecordShow } from '../audits/RowRecordShow';

/** An access event, kept from the row the list gave (the server has no route for one event). */
export default function AccessEventShow() {
  return <RowRecordShow />;
}
