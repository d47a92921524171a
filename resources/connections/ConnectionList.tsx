import { DeclaredList } from '../../src/framework/list/DeclaredList';
import { IntegrationsCard } from './IntegrationsCard';

/** The declared list, with the company's integrations above it. */
export default function ConnectionList() {
  return (
    <>
      <IntegrationsCard />
      <DeclaredList />
    </>
  );
}
