import net, { type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIp, parseIp, specialKind } from '../../server/reach/addresses';
import { parseHostRules } from '../../server/reach/host-rules';
import { judgeDial } from '../../server/reach/policy';
import { createReach, type CheckedTarget, type ReachOptions } from '../../server/reach/reach';
import { ConnectorError } from '../../server/connectors/types';
import { sendJson, startLocalServer, type LocalServer } from './connectors/fixtures-remote/local-server';
import { testResolver } from './connectors/test-context';

/**
 * The reach guard on its own: every spelling of an address is that address, every special range
 * is refused by default on a server that hosts many companies, the operator's lists change that
 * as documented, and a refusal is made before anything is dialled — over HTTP, on every redirect.
 */

const LOOPBACK_SPELLINGS = [
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '0x7f000001',
  '0x7f.0x0.0x0.0x1',
  '2130706433',
  '0177.0.0.1',
  '017700000001',
  '127.0.0.1.',
  '127.254.3.9',
  '[::1]',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '[::ffff:127.0.0.1]',
  '::127.0.0.1',
  '64:ff9b::127.0.0.1',
  '2002:7f00:1::',
];

describe('addresses', () => {
  it.each(LOOPBACK_SPELLINGS)('reads %s as a loopback address', (spelling) => {
    const ip = parseIp(spelling);
    expect(ip, spelling).toBeDefined();
    expect(specialKind(ip!)).toBe('loopback');
  });

  it('writes an address the usual way', () => {
    expect(formatIp(parseIp('127.1')!)).toBe('127.0.0.1');
    expect(formatIp(parseIp('0x7f000001')!)).toBe('127.0.0.1');
    expect(formatIp(parseIp('0:0:0:0:0:0:0:1')!)).toBe('::1');
    expect(formatIp(parseIp('::ffff:7f00:1')!)).toBe('::ffff:127.0.0.1');
    expect(formatIp(parseIp('fe80::1%eth0')!)).toBe('fe80::1');
    expect(formatIp(parseIp('2001:db8:0:0:1:0:0:1')!)).toBe('2001:db8::1:0:0:1');
  });

  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.10.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
  ])('knows %s as %s', (spelling, kind) => {
    expect(specialKind(parseIp(spelling)!)).toBe(kind);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8'])(
    'knows %s as an address on the internet',
    (spelling) => {
      expect(specialKind(parseIp(spelling)!)).toBeUndefined();
    },
  );

  it.each(['example.com', 'db.internal', '1.2.3.4.5', '256.1.1.1', '127.0.0.1.evil.test', '0x', ''])(
    'reads %j as a name, not an address',
    (text) => {
      expect(parseIp(text)).toBeUndefined();
    },
  );
});

describe("the operator's lists", () => {
  it('reads names, wildcards, addresses and ranges, each with an optional port', () => {
    const rules = parseHostRules(
      'CONNECTION_ALLOWED_HOSTS',
      ' db.internal:5432, *.corp.example ,10.0.0.0/8, [fd00::/8]:9000,127.0.0.1:6543,::1 ',
    );
    expect(rules.map((rule) => rule.kind)).toEqual(['name', 'name', 'range', 'range', 'range', 'range']);
    expect(rules.map((rule) => rule.port)).toEqual([5432, undefined, undefined, 9000, 6543, undefined]);
  });

  it.each(['db internal', 'http://db.internal', '10.0.0.0/33', 'db.internal:0', 'db.internal:70000', '[::1', '*'])(
    'stops the server at start on %j, naming the setting',
    (entry) => {
      expect(() => parseHostRules('CONNECTION_DENIED_HOSTS', entry)).toThrow(/^CONNECTION_DENIED_HOSTS: /);
    },
  );
});

describe('the policy', () => {
  const rules = (allowed = '', denied = '') => ({ allowed: parseHostRules('A', allowed), denied: parseHostRules('D', denied) });
  const dial = (host: string, port = 5432, address = host) => ({ host, port, address: parseIp(address)! });
  const many = { manyCompanies: true, ownDatabase: undefined };
  const single = { manyCompanies: false, ownDatabase: undefined };

  it('keeps the companies of a server that hosts many off every special address, and lets them reach the internet', () => {
    expect(judgeDial(rules(), many, dial('127.0.0.1'))).toMatchObject({ allowed: false, reason: 'a loopback address' });
    expect(judgeDial(rules(), many, dial('db.example.test', 5432, '10.0.0.9'))).toMatchObject({
      allowed: false,
      reason: 'a private address',
    });
    expect(judgeDial(rules(), many, dial('93.184.216.34'))).toEqual({ allowed: true });
  });

  it('lets the company of a single-company server reach them', () => {
    expect(judgeDial(rules(), single, dial('127.0.0.1'))).toEqual({ allowed: true });
    expect(judgeDial(rules(), single, dial('10.0.0.9'))).toEqual({ allowed: true });
  });

  it('follows the allowed list by address, range, name and port, and the denied list before it', () => {
    expect(judgeDial(rules('10.0.0.0/8'), many, dial('10.1.1.1'))).toEqual({ allowed: true });
    expect(judgeDial(rules('10.1.1.1:5432'), many, dial('10.1.1.1', 3306))).toMatchObject({ allowed: false });
    expect(judgeDial(rules('db.internal'), many, dial('DB.Internal.', 5432, '10.1.1.1'))).toEqual({ allowed: true });
    expect(judgeDial(rules('*.corp.example'), many, dial('pg.corp.example', 5432, '10.1.1.1'))).toEqual({ allowed: true });
    expect(judgeDial(rules('*.corp.example'), many, dial('corp.example.evil.test', 5432, '10.1.1.1'))).toMatchObject({ allowed: false });
    expect(judgeDial(rules('10.0.0.0/8', '10.9.9.9'), many, dial('10.9.9.9'))).toMatchObject({
      allowed: false,
      operatorSetting: 'CONNECTION_DENIED_HOSTS',
    });
    expect(judgeDial(rules('', '93.184.216.0/24'), single, dial('93.184.216.34'))).toMatchObject({
      allowed: false,
      reason: 'the operator denies it',
    });
  });

  it("keeps companies off the console's own database unless an allowed entry names its port", () => {
    const own = { manyCompanies: true, ownDatabase: { names: ['pg.internal'], addresses: [parseIp('10.0.0.5')!], port: 5432 } };
    expect(judgeDial(rules('10.0.0.0/8'), own, dial('10.0.0.5'))).toMatchObject({ allowed: false, reason: "the console's own database" });
    expect(judgeDial(rules('10.0.0.0/8'), own, dial('pg.internal', 5432, '10.0.0.6'))).toMatchObject({
      allowed: false,
      reason: "the console's own database",
    });
    expect(judgeDial(rules('10.0.0.0/8'), own, dial('10.0.0.5', 5433))).toEqual({ allowed: true });
    expect(judgeDial(rules('10.0.0.5:5432'), own, dial('10.0.0.5'))).toEqual({ allowed: true });
    // A public address is its own database too.
    const publicOwn = { manyCompanies: true, ownDatabase: { names: [], addresses: [parseIp('93.184.216.34')!], port: 5432 } };
    expect(judgeDial(rules(), publicOwn, dial('93.184.216.34'))).toMatchObject({ allowed: false, reason: "the console's own database" });
  });
});

describe('the guard', () => {
  const dials: CheckedTarget[] = [];
  const reachOf = (options: Partial<ReachOptions> = {}) =>
    createReach({
      allowed: [],
      denied: [],
      manyCompanies: async () => true,
      resolve: testResolver({
        'evil.test': '127.0.0.1',
        'mixed.test': ['93.184.216.34', '10.0.0.7'],
        'meta.test': '169.254.169.254',
        'six.test': '::1',
      }),
      onDial: (target) => dials.push(target),
      ...options,
    });
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return error as ConnectorError;
    }
    throw new Error('expected a refusal');
  };

  it('refuses every spelling of loopback in the words of the issue, before dialling', async () => {
    const reach = reachOf();
    for (const host of LOOPBACK_SPELLINGS) {
      const error = await refusal(reach.check({ host, port: 5432 }));
      expect(error.kind, host).toBe('refused');
      expect(error.message, host).toMatch(
        /^This server does not let companies connect to \S+ \(a loopback address\)\. An operator can allow it with CONNECTION_ALLOWED_HOSTS\.$/,
      );
    }
    expect((await refusal(reach.check({ host: '127.1', port: 5432 }))).message).toBe(
      'This server does not let companies connect to 127.0.0.1 (a loopback address). An operator can allow it with CONNECTION_ALLOWED_HOSTS.',
    );
    expect(dials).toEqual([]);
  });

  it('judges every address a name resolves to, and names both in the refusal', async () => {
    const reach = reachOf();
    expect((await refusal(reach.check({ host: 'evil.test', port: 443 }))).message).toBe(
      'This server does not let companies connect to evil.test (it resolves to 127.0.0.1, a loopback address). An operator can allow it with CONNECTION_ALLOWED_HOSTS.',
    );
    expect((await refusal(reach.check({ host: 'mixed.test', port: 443 }))).message).toContain(
      '(it resolves to 10.0.0.7, a private address)',
    );
    expect((await refusal(reach.check({ host: 'meta.test', port: 80 }))).message).toContain('a cloud metadata address');
    for (const host of ['localhost', 'localhost.', 'LOCALHOST', 'db.localhost', 'six.test']) {
      expect((await refusal(reach.check({ host, port: 80 }))).kind, host).toBe('refused');
    }
    expect(dials).toEqual([]);
  });

  it('answers a name it cannot resolve as unreachable, and a malformed one as invalid', async () => {
    const reach = reachOf();
    expect(await refusal(reach.check({ host: 'nowhere.test', port: 443 }))).toMatchObject({
      kind: 'unreachable',
      message: 'The host nowhere.test could not be found (no such host)',
    });
    expect((await refusal(reach.check({ host: 'db internal', port: 443 }))).kind).toBe('invalid');
    expect((await refusal(reach.check({ host: 'db.example.test', port: 0 }))).kind).toBe('invalid');
  });

  it('lets through what the operator allows, and gives drivers only the checked addresses', async () => {
    const reach = reachOf({ allowed: parseHostRules('A', 'evil.test:5432') });
    const target = await reach.check({ host: 'evil.test', port: 5432 });
    expect(target).toMatchObject({
      host: 'evil.test',
      port: 5432,
      addresses: [{ address: '127.0.0.1', family: 4 }],
      servername: 'evil.test',
    });
    const looked = await new Promise<unknown>((resolve) =>
      target.lookup('anything.else', { all: true }, (_error, addresses) => resolve(addresses)),
    );
    expect(looked).toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(reach.check({ host: 'evil.test', port: 5433 })).rejects.toMatchObject({ kind: 'refused' });
  });

  it('asks again whether the server hosts many companies, so that a single-company server reaches its own network', async () => {
    let many = false;
    const reach = reachOf({ manyCompanies: async () => many });
    await expect(reach.check({ host: '127.0.0.1', port: 5432 })).resolves.toMatchObject({ addresses: [{ address: '127.0.0.1' }] });
    many = true;
    await expect(reach.check({ host: '127.0.0.1', port: 5432 })).rejects.toMatchObject({ kind: 'refused' });
  });

  describe('over HTTP', () => {
    let target: LocalServer;
    let redirecting: LocalServer;
    let connections = 0;
    let counter: net.Server;

    beforeAll(async () => {
      target = await startLocalServer((_request, response) => sendJson(response, 200, { reached: true }));
      redirecting = await startLocalServer((_request, response) => {
        response.writeHead(302, { location: `${target.url}/inside` }).end();
      });
      counter = net.createServer((socket: Socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await target?.close();
      await redirecting?.close();
      await new Promise((resolve) => counter?.close(resolve));
    });

    it('refuses a loopback URL before any connection is made', async () => {
      const port = (counter.address() as AddressInfo).port;
      const reach = reachOf();
      const error = await refusal(reach.fetch(`http://127.1:${port}/`));
      expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(ConnectorError);
      expect((error as Error & { cause: ConnectorError }).cause.message).toContain('connect to 127.0.0.1 (a loopback address)');
      expect(connections).toBe(0);
    });

    it('judges the host a redirect leads to like the first one', async () => {
      const reach = reachOf({ allowed: parseHostRules('A', `127.0.0.1:${redirecting.port}`) });
      const before = target.requests.length;
      const error = await refusal(reach.fetch(`${redirecting.url}/start`));
      expect((error as Error & { cause: ConnectorError }).cause.kind).toBe('refused');
      expect(redirecting.requests.length).toBeGreaterThan(0);
      expect(target.requests.length).toBe(before);
      // Allowed, the same redirect is followed.
      const open = reachOf({ allowed: parseHostRules('A', `127.0.0.1:${redirecting.port},127.0.0.1:${target.port}`) });
      expect(await (await open.fetch(`${redirecting.url}/start`)).json()).toEqual({ reached: true });
    });
  });
});
