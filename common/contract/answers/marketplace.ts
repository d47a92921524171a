import { z } from 'zod';
import { CONNECTION_TYPES, type SettingKind } from '../../connections';
import { MARKETPLACE_CATEGORIES } from '../../marketplace';
import { answer } from '../answers';
import { connectionRow, connectionTestResult } from '../connections';

/** The marketplace of integrations (docs/api/marketplace.md; the catalogue is common/marketplace.ts). */

/** How a setting's input is drawn. */
export const SETTING_KINDS = ['text', 'number', 'password', 'boolean', 'select', 'url'] as const satisfies readonly SettingKind[];

/** One setting an integration's form asks for, as its connection type declares it (common/connections.ts). */
export const integrationSetting = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(SETTING_KINDS),
  required: z.boolean().optional(),
  /** Encrypted at rest and never sent back; an edit that leaves it blank keeps it. */
  secret: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** A select's choices. */
  choices: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  placeholder: z.string().optional(),
  help: z.string().optional(),
  /** Shown only when another setting has one of these values (`{ mode: ['webhook'] }`). */
  when: z.record(z.string(), z.array(z.string())).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** A text setting must match this (JavaScript regular expression source), else `message`. */
  pattern: z.object({ source: z.string(), message: z.string() }).optional(),
  /** A text setting's most characters (2,000 unless told). */
  maxLength: z.number().int().optional(),
});

/** An integration as a card: its declaration, and how the company uses it. */
export const integrationCard = z.object({
  /** Its id in the marketplace's routes (`/marketplace/{id}/integration`). */
  id: z.string(),
  name: z.string(),
  category: z.enum(MARKETPLACE_CATEGORIES),
  description: z.string(),
  /** The type of the connections it makes. */
  connectionType: z.enum(CONNECTION_TYPES),
  /** The parts a connection of it can play in a source/destination pair (none for chat and code). */
  roles: z.array(z.enum(['source', 'destination'])),
  settings: z.array(integrationSetting),
  /** The vendor's page on getting what the form asks for. */
  docsUrl: z.string().optional(),
  /** The company has an active connection of it. */
  active: z.boolean(),
  /** The company's connections of its type. */
  connections: z.number().int(),
  activeConnections: z.number().int(),
});

/** `GET /marketplace`: every integration, in the catalogue's order. */
export const marketplaceAnswer = answer(z.array(integrationCard));

/** `GET /marketplace/{id}/integration`: one integration and the company's connections of it, by name. */
export const integrationAnswer = answer(z.object({ integration: integrationCard, connections: z.array(connectionRow) }));

/** `GET /marketplace/active/cloudStorage/{id}`: active cloud-storage connections, by name, each with its integration. */
export const cloudStorageAnswer = answer(z.array(connectionRow.extend({ integrationId: z.string() })));

/** `POST /marketplace/configure` (201): the connection made, and its first test (kept even when the test fails). */
export const configuredAnswer = answer(z.object({ connection: connectionRow, test: connectionTestResult }));
