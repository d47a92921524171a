import { DeclaredShow } from '../../src/framework/show/DeclaredShow';
import { EndpointsPanel } from './EndpointsPanel';
import { PairsPanel } from './PairsPanel';
import { SettingsSummary } from './SettingsSummary';

/** A connection: the declared details and its settings, what it reaches, and the pairs it is part of. Its test is in the toolbar. */
export default function ConnectionShow() {
  return (
    <DeclaredShow>
      <SettingsSummary label={false} />
      <EndpointsPanel label={false} />
      <PairsPanel label={false} />
    </DeclaredShow>
  );
}
