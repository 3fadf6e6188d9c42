import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../config/config.ts';
import { ProblemError } from '../errors/problem.ts';
import { signWebhook, verifyWebhook } from './webhook-signature.ts';
import { addressBlockReason, assertWebhookUrlAllowed, isHostAllowed, unmapIPv4 } from './webhook-url.ts';

describe('addressBlockReason', () => {
  const blocked: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['255.255.255.255', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.0.8', 'IETF protocol assignment'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'IETF protocol assignment'], // Teredo
    ['2002:a00:1::1', '6to4'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['100::1', 'discard-only'],
    ['::a00:1', 'special-purpose'], // IPv4-compatible (deprecated)
    ['fe80::1%eth0', 'link-local'],
    // IPv4-mapped IPv6, in every spelling, is judged by its IPv4 address.
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::FFFF:169.254.169.254', 'link-local'],
    ['not-an-ip', 'invalid'],
  ];
  for (const [address, reason] of blocked) {
    test(`${address} is refused (${reason})`, () => assert.equal(addressBlockReason(address), reason));
  }
  for (const address of [
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
  ]) {
    test(`${address} is public`, () => assert.equal(addressBlockReason(address), undefined));
  }
  test('the loopback allowance admits loopback only', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(addressBlockReason(a, true), undefined, a);
    for (const a of ['10.0.0.1', '169.254.169.254', 'fe80::1', '0.0.0.0', '::ffff:192.168.0.1'])
      assert.notEqual(addressBlockReason(a, true), undefined, a);
  });
  test('unmapIPv4', () => {
    assert.equal(unmapIPv4('::ffff:a00:1'), '10.0.0.1');
    assert.equal(unmapIPv4('::ffff:192.168.0.1'), '192.168.0.1');
    assert.equal(unmapIPv4('2001:db8::1'), undefined);
    assert.equal(unmapIPv4('10.0.0.1'), undefined);
  });
});

describe('assertWebhookUrlAllowed', () => {
  const config = { webhookAllowedHosts: ['hooks.example.com', '*.customer.example', '127.0.0.1', '10.1.2.3'], webhookAllowLoopback: false };
  const refusedFor = (url: string, cfg = config): ProblemError => {
    try {
      assertWebhookUrlAllowed(url, cfg);
    } catch (err) {
      assert.ok(err instanceof ProblemError);
      return err;
    }
    assert.fail(`${url} was accepted`);
  };

  test('accepts https URLs on listed hosts and wildcard subdomains', () => {
    for (const url of [
      'https://hooks.example.com/x?y=1',
      'https://HOOKS.example.com:8443/',
      'https://a.customer.example/h',
      'https://a.b.customer.example/h',
      'https://hooks.example.com./x',
    ]) {
      assert.equal(assertWebhookUrlAllowed(url, config).protocol, 'https:', url);
    }
  });

  test('refuses http, other schemes, credentials, unlisted hosts and the bare wildcard apex', () => {
    for (const url of [
      'http://hooks.example.com/x',
      'ftp://hooks.example.com/',
      'https://user:pw@hooks.example.com/',
      'https://evil.example.com/',
      'https://customer.example/',
      'https://hooks.example.com.evil.test/',
      'https://xcustomer.example/',
      'not a url',
    ]) {
      const err = refusedFor(url);
      assert.equal(err.code, 'webhook_url_not_allowed');
      assert.equal(err.status, 400);
      assert.equal(err.issues?.[0]?.path, 'body.webhookUrl');
    }
  });

  test('a listed IP literal must still be public (loopback only with the allowance)', () => {
    assert.match(refusedFor('https://10.1.2.3/').detail!, /private/);
    assert.match(refusedFor('https://127.0.0.1/').detail!, /loopback/);
    assert.ok(assertWebhookUrlAllowed('https://127.0.0.1:9/', { ...config, webhookAllowLoopback: true }));
  });

  test('no allowed hosts: every URL is refused', () => {
    assert.match(
      refusedFor('https://hooks.example.com/', { webhookAllowedHosts: [], webhookAllowLoopback: false }).detail!,
      /WEBHOOK_ALLOWED_HOSTS/,
    );
  });

  test('isHostAllowed', () => {
    assert.equal(isHostAllowed('a.example.com', ['*.example.com']), true);
    assert.equal(isHostAllowed('example.com', ['*.example.com']), false);
    assert.equal(isHostAllowed('badexample.com', ['*.example.com']), false);
  });
});

describe('Standard Webhooks signature', () => {
  // The example of the Standard Webhooks specification.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const ts = 1614265330;
  const body = '{"test": 2432232314}';

  test('matches the specification example', () => {
    assert.equal(signWebhook(secret, id, ts, body), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('verifyWebhook: right secret and fresh timestamp only', () => {
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': `v1,bogus ${signWebhook(secret, id, ts, body)}`,
    };
    assert.equal(verifyWebhook(secret, headers, body, ts), true);
    assert.equal(verifyWebhook('whsec_' + Buffer.alloc(32, 1).toString('base64'), headers, body, ts), false);
    assert.equal(verifyWebhook(secret, headers, body + ' ', ts), false);
    assert.equal(verifyWebhook(secret, headers, body, ts + 301), false);
  });
});

describe('WEBHOOK_ALLOW_LOOPBACK setting', () => {
  test('off by default; on in local mode', () => {
    assert.equal(loadConfig({}).webhookAllowLoopback, false);
    assert.equal(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1' }).webhookAllowLoopback, true);
  });
  test('refused in hosted mode', () => {
    const hosted = {
      SERVICE_LOCAL_MODE: '0',
      DATABASE_URL: 'postgres://u:p@db.example/x',
      APP_ORIGIN: 'https://app.example.com',
      AUTH_SECRET: 'x'.repeat(40),
    };
    assert.equal(loadConfig(hosted).webhookAllowLoopback, false);
    assert.throws(
      () => loadConfig({ ...hosted, WEBHOOK_ALLOW_LOOPBACK: '1' }),
      (err: unknown) => err instanceof ConfigError && err.problems.some((p) => /WEBHOOK_ALLOW_LOOPBACK/.test(p) && /hosted mode/.test(p)),
    );
  });
});
