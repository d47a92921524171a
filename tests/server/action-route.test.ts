import fastifySwagger from '@fastify/swagger';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyContextConfig, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fileBytes } from '../../common/contract/answers';
import { defineAction } from '../../common/contract/define';
import type { AuthContext } from '../../server/platform/auth-context';
import { actionRoute } from '../../server/platform/action-route';
import { answerSerializer } from '../../server/platform/answers';
import type { RouteBase } from '../../server/platform/answer-route';

/**
 * What actionRoute makes of an action's declaration, on a bare server whose callers are signed in
 * by a test header: public access, a multipart form, a file answer, a status the handler
 * chooses, and the refusal of a path placeholder without its rule.
 */

const base: RouteBase = { config: {}, tags: ['Samples'] };
const CALLER = { companyId: 'c1', userId: 'u1' } as AuthContext;

const actions = {
  echo: defineAction({ path: '/sample/echo', method: 'POST', summary: 'Echo', access: 'public', body: z.object({ word: z.string() }) }),
  signedIn: defineAction({ path: '/sample/signed-in', method: 'POST', summary: 'Signed in', body: z.object({ word: z.string() }) }),
  form: defineAction({
    path: '/sample/form/{id}',
    method: 'PUT',
    summary: 'A form',
    body: { kind: 'multipart', parts: z.object({ note: z.string(), file: fileBytes }) },
    data: z.object({ note: z.string(), bytes: z.number() }),
  }),
  file: defineAction({
    path: '/sample/file/{name}',
    method: 'GET',
    summary: 'A file',
    params: { name: z.string().regex(/^[a-z]+$/, 'must be letters') },
    answer: { kind: 'file', description: 'Some text', content: { 'text/csv': { schema: z.string() } } },
  }),
  save: defineAction({
    path: '/sample/save',
    method: 'POST',
    summary: 'Save',
    body: z.object({ existing: z.boolean(), status: z.number().optional() }),
    data: z.object({ existing: z.boolean() }),
    status: [201, 200],
  }),
};

let app: FastifyInstance;
const configs = new Map<string, FastifyContextConfig>();

beforeAll(async () => {
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(true));
  await app.register(fastifySwagger, {
    openapi: { openapi: '3.0.3', info: { title: 'samples', version: '1' } },
    transform: jsonSchemaTransform,
  });
  await app.register(multipart);
  // A caller is signed in when the request says so (the real guard reads a session).
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    request.auth = request.headers['x-test-caller'] ? CALLER : null;
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) =>
    reply.code(error.statusCode ?? 500).send({ message: error.message }),
  );
  app.addHook('onRoute', (route) => {
    configs.set(route.url, route.config ?? {});
  });
  actionRoute(app, { ...base, config: { acrossCompanies: 'found by a host name' } }, actions.echo, async ({ body }) => ({
    message: `heard ${body.word}`,
  }));
  actionRoute(app, base, actions.signedIn, async ({ auth, body }) => ({ message: `${auth.userId} said ${body.word}` }));
  actionRoute(app, base, actions.form, async ({ params, request }) => {
    let note = '';
    let bytes = 0;
    for await (const part of request.parts()) {
      if (part.type === 'file') bytes = (await part.toBuffer()).length;
      else note = String(part.value);
    }
    return { message: `form ${params.id}`, data: { note, bytes } };
  });
  actionRoute(app, base, actions.file, async ({ params }) => ({
    body: `name\r\n${params.name}\r\n`,
    type: 'text/csv; charset=utf-8',
    headers: { 'content-disposition': `attachment; filename="${params.name}.csv"` },
  }));
  actionRoute(app, base, actions.save, async ({ body }) => ({
    status: body.status ?? (body.existing ? 200 : 201),
    answer: { message: body.existing ? 'saved' : 'created', data: { existing: body.existing } },
  }));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
});

const signedIn = { 'x-test-caller': 'yes' };
type Operation = {
  summary?: string;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
const operation = (path: string, method: string) =>
  (app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> }).paths[path][method];

describe('actionRoute', () => {
  it('answers a public action without a caller, and a signed-in one only to a caller', async () => {
    const heard = await app.inject({ method: 'POST', url: '/sample/echo', payload: { word: 'hello' } });
    expect(heard.statusCode).toBe(200);
    expect(heard.json()).toEqual({ message: 'heard hello' });

    const refused = await app.inject({ method: 'POST', url: '/sample/signed-in', payload: { word: 'hello' } });
    expect(refused.statusCode).toBe(401);
    const said = await app.inject({ method: 'POST', url: '/sample/signed-in', payload: { word: 'hello' }, headers: signedIn });
    expect(said.json()).toEqual({ message: 'u1 said hello' });
    // A public action still checks its body.
    expect((await app.inject({ method: 'POST', url: '/sample/echo', payload: { word: 1 } })).statusCode).toBe(400);
  });

  it('marks a public action public for the guard, keeping the config it is given', () => {
    expect(configs.get('/sample/echo')).toEqual({ acrossCompanies: 'found by a host name', public: true });
    expect(configs.get('/sample/signed-in')?.public).toBeUndefined();
  });

  it('hands a multipart form to the handler unchecked, and documents its parts', async () => {
    const boundary = 'sampleboundary';
    const payload = [
      `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabcd\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const formHeaders = { ...signedIn, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const sent = await app.inject({
      method: 'PUT',
      url: '/sample/form/4b4f5b6e-9d55-4f0e-8a3e-2d0c8d1f6a10',
      payload,
      headers: formHeaders,
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: 'form 4b4f5b6e-9d55-4f0e-8a3e-2d0c8d1f6a10', data: { note: 'hi', bytes: 4 } });
    // `{id}` is still checked as a record id.
    expect((await app.inject({ method: 'PUT', url: '/sample/form/nope', payload, headers: formHeaders })).statusCode).toBe(400);

    const content = operation('/sample/form/{id}', 'put').requestBody?.content ?? {};
    expect(Object.keys(content)).toEqual(['multipart/form-data']);
    expect(Object.keys(content['multipart/form-data'].schema.properties ?? {})).toEqual(['note', 'file']);
  });

  it('sends a file answer as the handler gives it, under its declared media types', async () => {
    const file = await app.inject({ method: 'GET', url: '/sample/file/abc', headers: signedIn });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="abc.csv"');
    expect(file.body).toBe('name\r\nabc\r\n');
    // Its placeholder is checked by the declared rule.
    const refused = await app.inject({ method: 'GET', url: '/sample/file/a1', headers: signedIn });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('must be letters');

    expect(Object.keys(operation('/sample/file/{name}', 'get').responses['200'].content ?? {})).toEqual(['text/csv']);
  });

  it('answers with the status the handler chooses among those declared, and refuses another', async () => {
    const created = await app.inject({ method: 'POST', url: '/sample/save', payload: { existing: false }, headers: signedIn });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ message: 'created', data: { existing: false } });
    const saved = await app.inject({ method: 'POST', url: '/sample/save', payload: { existing: true }, headers: signedIn });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ message: 'saved', data: { existing: true } });
    const undeclared = await app.inject({
      method: 'POST',
      url: '/sample/save',
      payload: { existing: true, status: 202 },
      headers: signedIn,
    });
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.json().message).toBe('POST /sample/save answered 202, which it does not declare');

    expect(Object.keys(operation('/sample/save', 'post').responses).sort()).toEqual(['200', '201']);
  });

  it('refuses at registration a path placeholder other than {id} without its rule', () => {
    const unchecked = defineAction({ path: '/sample/{id}/by/{name}', method: 'GET', summary: 'Unchecked' });
    const other = Fastify();
    expect(() => actionRoute(other, base, unchecked, async () => ({ message: 'never' }))).toThrow(
      'The action GET /sample/{id}/by/{name} declares no params rule for {name}',
    );
  });
});
