import { DeclaredShow } from '../../src/framework';
import { AccessControlPanel } from './AccessControlPanel';
import { ProfileActivity } from './ProfileActivity';
import { UserSessionsPanel } from '../sessions/UserSessionsPanel';

/** A user: the declared details (workspaces among them), then access control, recent activity and sessions. */
export default function UserShow() {
  return (
    <DeclaredShow>
      <AccessControlPanel label={false} />
      <ProfileActivity label={false} />
      <UserSessionsPanel />
    </DeclaredShow>
  );
}
