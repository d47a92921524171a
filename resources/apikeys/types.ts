/** An API key as the server answers it (docs/api/apikeys.md): never the secret, never its hash. */
export interface ApiKey {
  id: string;
  name: string;
  /** The 12 characters after `dok_`: enough to recognise a key. */
  prefix: string;
  accessUserId: string;
  accessUserName: string | null;
  createdBy: string | null;
  createdByName: string | null;
  isActive: boolean;
  isDeleted: boolean;
  expiresAt: string | null;
  lastUsedAt: string | null;
  /** Ids of the operations granted (`get_users_offset_limit`, ...). */
  operations: string[];
  createdAt: string;
  updatedAt: string;
}

/** The create answer: the row and, this once, the secret. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export type HttpVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An operation a key may be granted (`GET /openapi`). */
export interface ApiOperation {
  id: string;
  method: HttpVerb;
  /** Relative to /api/v1, with `{param}` placeholders. */
  path: string;
  summary: string;
  tag: string;
}

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie' | string;
  required: boolean;
  description: string | null;
  schema: unknown;
}

/** One operation with what it takes (`GET /openapi/{id}`). */
export interface OperationDetail extends ApiOperation {
  description: string | null;
  parameters: OperationParameter[];
  body: { required: boolean; contentTypes: string[]; schema: unknown } | null;
}

export interface OperationGroup {
  tag: string;
  operations: ApiOperation[];
}
