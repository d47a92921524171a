import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer, listAnswer } from '../../common/contract/answers';
import { answerSerializer } from '../../server/platform/answers';

/**
 * Answers are written as plain JSON whatever their schema says (nothing is trimmed), and the test
 * servers hold each one against its declared schema, so a route whose document is wrong fails.
 */
async function serverAnswering(check: boolean, data: unknown) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(check));
  const row = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
  app.get('/things', { schema: { response: { 200: listAnswer(row) } } }, async () => data as never);
  app.get('/thing', { schema: { response: { 201: answer(row) } } }, async (_request, reply) => reply.code(201).send(data as never));
  await app.ready();
  return app;
}

const goodPage = {
  message: 'Things',
  data: { rows: [{ id: 'a', name: 'A', createdAt: new Date('2026-01-02T03:04:05Z'), extra: 1 }], count: 1, countExact: true },
};

describe('answers with a declared schema', () => {
  it('are sent as plain JSON, extra fields and all, with or without the check', async () => {
    for (const check of [false, true]) {
      const app = await serverAnswering(check, goodPage);
      const response = await app.inject({ method: 'GET', url: '/things' });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.rows[0]).toEqual({ id: 'a', name: 'A', createdAt: '2026-01-02T03:04:05.000Z', extra: 1 });
      await app.close();
    }
  });

  it('fail with a 500 naming the route and the field when the check is on and they do not match', async () => {
    const wrong = { message: 'Things', data: { rows: [{ id: 'a', createdAt: 'x' }], count: 1, countExact: true } };
    const checked = await serverAnswering(true, wrong);
    const response = await checked.inject({ method: 'GET', url: '/things' });
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toContain('The answer of GET /things (200) does not match its declared schema: data.rows.0.name');
    await checked.close();

    const unchecked = await serverAnswering(false, wrong);
    expect((await unchecked.inject({ method: 'GET', url: '/things' })).json()).toEqual(wrong);
    await unchecked.close();
  });

  it('are checked at the status code they declare', async () => {
    const app = await serverAnswering(true, { message: 'Thing', data: { id: 'a' } });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toContain('GET /thing (201)');
    await app.close();
  });
});
