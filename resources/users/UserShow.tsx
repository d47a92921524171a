import { DeclaredShow } from '../../src/framework';
import { AccessControlPanel } from './AccessControlPanel';
import { ProfileActivity } from './ProfileActivity';

/** A user: the declared details (workspaces among them), then access control and recent activity. */
export default function UserShow() {
  return (
    <DeclaredShow>
      <AccessControlPanel label={false} />
      <ProfileActivity label={false} />
    </DeclaredShow>
  );
}
