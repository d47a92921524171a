import { pairBody } from '../../common/schemas/connections';
import type { Connection, Pair } from './types';

export type PairRole = 'source' | 'destination';

/** The parts this connection may play in a new pair: what it is marked as. */
export function rolesOf(connection: Pick<Connection, 'isSource' | 'isDestination'>): PairRole[] {
  return [...(connection.isSource ? (['source'] as const) : []), ...(connection.isDestination ? (['destination'] as const) : [])];
}

/**
 * The connections a new pair may join this one to: destinations when it is the source, sources
 * when it is the destination; never itself, nor one it is already paired with that way round.
 */
export function pairCandidates(
  connection: Pick<Connection, 'id'>,
  role: PairRole,
  all: readonly Connection[],
  pairs: readonly Pair[],
): Connection[] {
  const taken = new Set(
    pairs
      .filter((pair) => (role === 'source' ? pair.sourceId === connection.id : pair.destinationId === connection.id))
      .map((pair) => (role === 'source' ? pair.destinationId : pair.sourceId)),
  );
  return all.filter(
    (other) => other.id !== connection.id && !taken.has(other.id) && (role === 'source' ? other.isDestination : other.isSource),
  );
}

/** A new pair's name until someone types another: "source → destination". */
export function pairName(sourceName: string, destinationName: string): string {
  return `${sourceName} → ${destinationName}`;
}

/** A pair's name as the console asks for it: the server's rule, and not left empty. */
export const pairNameRule = pairBody.shape.name.unwrap().min(1, 'is required');
