import type { ConnectorRegistry } from '../connectors/registry';
import { seedSampleShop } from '../connectors/sample-data';
import { isTableSource } from '../connectors/types';
import type { Db } from '../db/client';
import { connections, sourceDestinations } from '../db/schema';

/** The embedded databases of the first company's sample connections. */
export const SAMPLE_SOURCE = { name: 'Sample shop', database: 'sample-shop' };
export const SAMPLE_DESTINATION = { name: 'Sample warehouse', database: 'sample-warehouse' };

/**
 * Gives the first company something to work with: a sample shop database as a source (customers,
 * orders, order items and products, with some dirty data for the data-quality rules to find), an
 * empty warehouse database as a destination, and the pair that joins them. Both live in the data
 * directory as embedded databases.
 */
export async function provisionSampleData(db: Db, registry: ConnectorRegistry, companyId: string, adminUserId: string): Promise<void> {
  await registry.use({ companyId, type: 'embedded', settings: { database: SAMPLE_SOURCE.database }, secrets: {} }, async (source) => {
    if (!isTableSource(source)) throw new Error('the embedded database is not a table source');
    await seedSampleShop(source);
  });
  await registry.use({ companyId, type: 'embedded', settings: { database: SAMPLE_DESTINATION.database }, secrets: {} }, (destination) =>
    destination.test(),
  );
  await db.transaction(async (tx) => {
    const [source] = await tx
      .insert(connections)
      .values({
        companyId,
        name: SAMPLE_SOURCE.name,
        description: 'A small online shop with some dirty data on purpose: missing and duplicated emails, odd amounts, stale customers.',
        type: 'embedded',
        isSource: true,
        settings: { database: SAMPLE_SOURCE.database },
        createdBy: adminUserId,
      })
      .returning({ id: connections.id });
    const [destination] = await tx
      .insert(connections)
      .values({
        companyId,
        name: SAMPLE_DESTINATION.name,
        description: 'An empty database to copy into.',
        type: 'embedded',
        isDestination: true,
        settings: { database: SAMPLE_DESTINATION.database },
        createdBy: adminUserId,
      })
      .returning({ id: connections.id });
    await tx.insert(sourceDestinations).values({
      companyId,
      name: `${SAMPLE_SOURCE.name} → ${SAMPLE_DESTINATION.name}`,
      sourceId: source.id,
      destinationId: destination.id,
      createdBy: adminUserId,
    });
  });
}
