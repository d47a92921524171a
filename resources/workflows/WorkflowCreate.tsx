import { Create } from 'react-admin';
import { WorkflowForm } from './WorkflowForm';

/** A new workflow; saved, it opens its page. */
export default function WorkflowCreate() {
  return (
    <Create redirect={false}>
      <WorkflowForm mode="create" />
    </Create>
  );
}
