import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { CONTRACTS, pageCatalogue } from '../../../common/contract';
import { defineContract, everyAction } from '../../../common/contract/define';
import { resources } from '../../../resources';
import { menuIcon } from '../../../src/framework/icons';
import { defineResource } from '../../../src/framework/types';

/** The console side of the contracts (common/contract): each entity is declared once, and the console follows it. */
describe('the console over the contracts', () => {
  it('declares every entity of the contracts, and takes its name, calls and policy from its contract', () => {
    for (const contract of CONTRACTS) {
      const declaration = resources.find((resource) => resource.name === contract.name);
      expect(declaration, contract.name).toBeDefined();
      expect(declaration!.contract).toBe(contract);
      expect(declaration!.routes).toBe(contract.routes);
      expect(declaration!.access).toBe(contract.policy.resource);
    }
    expect(resources.every((resource) => resource.contract)).toBe(true);
  });

  it('bundles the icon of every page the menu may show', () => {
    for (const page of pageCatalogue()) expect(menuIcon(page.icon, 'page'), page.id).not.toBe(ChevronRightIcon);
  });

  it('lets a declaration say otherwise than its contract where it must', () => {
    const contract = defineContract({
      name: 'labels',
      routes: { list: '/labels/{offset}/{limit}', activate: '/label/activate/{id}', deactivate: '/label/deactivate/{id}' },
      policy: everyAction('labels', 'Labels', 99),
      page: { id: 'labels', title: 'Labels', url: '/labels', group: 'data', icon: 'table_chart', order: 99 },
      activation: { field: 'isActive' },
    });
    const plain = defineResource({ contract, messages: { en: { name: 'Label |||| Labels' } }, fields: [] });
    expect(plain).toMatchObject({ name: 'labels', access: 'labels', activation: { field: 'isActive' }, routes: contract.routes });
    expect(plain.icon).toBe(menuIcon('table_chart', 'page'));
    const own = defineResource({ contract, access: 'tables', messages: { en: { name: 'Label |||| Labels' } }, fields: [] });
    expect(own.access).toBe('tables');
  });
});
