// One contract for every blob store: the file store, the database store on SQLite and on Postgres
// (with and without a key prefix), the S3 store against a real S3-compatible server (s3rver, with
// and without a prefix) and the in-memory layer in front of one. Then what only some stores do:
// namespaces sharing one table or bucket, and the S3 store's presigned URLs fetched without
// credentials.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { createDatabase, migrateToLatest, type Database } from '../../db/database.ts';
import { DatabaseBlobStore } from '../../db/repositories/blobs.repository.ts';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import { FsBlobStore } from '../../src/blob/fs.blob-store.ts';
import { MemoryCachedBlobStore } from '../../src/blob/memory-cached.blob-store.ts';
import { S3BlobStore, createS3Client } from '../../src/blob/s3.blob-store.ts';
import { ENGINES, createTestDatabase } from '../support/black-box/databases.ts';
import { type S3TestServer, startS3Server } from '../support/black-box/s3-server.ts';

/** A store under test and a look at its backing storage. */
interface StoreUnderTest {
  store: BlobStore;
  /** Every name in the backing storage (files, rows, objects) this store could have written. */
  stored(): Promise<string[]>;
  /** Where the store keeps `key` in its backing storage. */
  location(key: string): string;
  close(): Promise<void>;
}

let keyCounter = 0;
/** A fresh content-address-shaped key. */
function newKey(extension = 'png'): string {
  keyCounter += 1;
  return `${createHash('sha256').update(`blob-store-contract-${keyCounter}`).digest('hex')}.${extension}`;
}

/** Deterministic bytes that do not repeat (xorshift32). */
function pseudoRandomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const UNSAFE_KEYS = ['../x', 'a/b', '../../../../etc/passwd', 'ABCDEF0123456789.PNG', '', '0123456789abcdef/../../x.png'];

function blobStoreContract(name: string, factory: () => Promise<StoreUnderTest>): void {
  describe(`blob store contract: ${name}`, () => {
    let sut: StoreUnderTest;
    before(async () => {
      sut = await factory();
    });
    after(async () => {
      await sut?.close();
    });

    /** The store holds exactly one copy of key, at its location, and nothing else named after it. */
    async function assertOneCopy(key: string): Promise<void> {
      const names = (await sut.stored()).filter((n) => n.includes(key));
      assert.deepEqual(names, [sut.location(key)]);
    }

    it('answers undefined for a missing key', async () => {
      assert.equal(await sut.store.get(newKey()), undefined);
    });

    it('returns exactly the bytes it was given', async () => {
      const key = newKey();
      const bytes = pseudoRandomBytes(4096, 1);
      await sut.store.put(key, bytes);
      const got = await sut.store.get(key);
      assert.ok(Buffer.isBuffer(got));
      assert.ok(got.equals(bytes));
      await assertOneCopy(key);
    });

    it('stores an empty blob', async () => {
      const key = newKey('txt');
      await sut.store.put(key, Buffer.alloc(0));
      const got = await sut.store.get(key);
      assert.ok(Buffer.isBuffer(got), 'an empty blob is not a missing one');
      assert.equal(got.length, 0);
    });

    it('stores a 5 MB blob byte for byte', async () => {
      const key = newKey('mp4');
      const bytes = pseudoRandomBytes(5 * 1024 * 1024, 2);
      await sut.store.put(key, bytes);
      const got = await sut.store.get(key);
      assert.equal(got?.length, bytes.length);
      assert.ok(got.equals(bytes));
    });

    it('stores only the bytes of a Uint8Array view, not its whole buffer', async () => {
      const key = newKey();
      const whole = new Uint8Array(pseudoRandomBytes(96, 3));
      const view = whole.subarray(7, 7 + 40);
      assert.notEqual(view.byteOffset, 0);
      await sut.store.put(key, view);
      const got = await sut.store.get(key);
      assert.ok(got?.equals(Buffer.from(whole.slice(7, 47))));
    });

    it('keeps one copy when the same key is put twice', async () => {
      const key = newKey();
      const bytes = pseudoRandomBytes(1000, 4);
      await sut.store.put(key, bytes);
      await sut.store.put(key, bytes);
      assert.ok((await sut.store.get(key))?.equals(bytes));
      await assertOneCopy(key);
    });

    it('accepts two concurrent puts of the same key', async () => {
      const key = newKey();
      const bytes = pseudoRandomBytes(64 * 1024, 5);
      await Promise.all([sut.store.put(key, bytes), sut.store.put(key, Buffer.from(bytes))]);
      assert.ok((await sut.store.get(key))?.equals(bytes));
      await assertOneCopy(key);
    });

    it('forgets a deleted key', async () => {
      const key = newKey();
      await sut.store.put(key, pseudoRandomBytes(100, 6));
      await sut.store.delete(key);
      assert.equal(await sut.store.get(key), undefined);
      assert.deepEqual(
        (await sut.stored()).filter((n) => n.includes(key)),
        [],
      );
    });

    it('deletes a missing key without complaint', async () => {
      await sut.store.delete(newKey());
    });

    it('refuses unsafe keys in every method and writes nothing', async () => {
      const before = (await sut.stored()).sort();
      for (const key of UNSAFE_KEYS) {
        await assert.rejects(sut.store.get(key), /unsafe blob key/, `get(${JSON.stringify(key)})`);
        await assert.rejects(sut.store.put(key, Buffer.from('x')), /unsafe blob key/, `put(${JSON.stringify(key)})`);
        await assert.rejects(sut.store.delete(key), /unsafe blob key/, `delete(${JSON.stringify(key)})`);
        if (sut.store.presignGet)
          await assert.rejects(
            sut.store.presignGet(key, { expiresInSeconds: 60 }),
            /unsafe blob key/,
            `presignGet(${JSON.stringify(key)})`,
          );
      }
      assert.deepEqual((await sut.stored()).sort(), before);
    });
  });
}

// ---- the stores ----

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

blobStoreContract('FsBlobStore', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'render-service-blobs-'));
  return {
    store: new FsBlobStore(root),
    stored: () => listFiles(root),
    location: (key) => path.join(key.slice(0, 2), key),
    close: () => rm(root, { recursive: true, force: true }),
  };
});

/** A fresh migrated database of the engine, shared by the stores made on it. */
async function openDatabase(engine: (typeof ENGINES)[number]): Promise<{ db: Database; close(): Promise<void> }> {
  const testDb = await createTestDatabase(engine, { migrated: true });
  const db = createDatabase(testDb.settings);
  await migrateToLatest(db);
  return {
    db,
    close: async () => {
      await db.destroy();
      await testDb.drop();
    },
  };
}

const tableKeys = async (db: Database) => (await db('blobs').select('key')).map((row: { key: string }) => row.key);

for (const engine of ENGINES) {
  for (const prefix of ['', 'cache/']) {
    blobStoreContract(`DatabaseBlobStore on ${engine}${prefix ? ` with prefix ${prefix}` : ''}`, async () => {
      const database = await openDatabase(engine);
      return {
        store: prefix ? new DatabaseBlobStore(database.db, prefix) : new DatabaseBlobStore(database.db),
        stored: () => tableKeys(database.db),
        location: (key) => prefix + key,
        close: database.close,
      };
    });
  }
}

// One s3rver for the whole file, started by the first suite that needs it.
let s3ServerStarted: Promise<S3TestServer> | undefined;
const s3Clients: S3Client[] = [];
function s3Server(): Promise<S3TestServer> {
  s3ServerStarted ??= startS3Server();
  return s3ServerStarted;
}
async function s3Client(): Promise<{ server: S3TestServer; client: S3Client }> {
  const server = await s3Server();
  const client = createS3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
  });
  s3Clients.push(client);
  return { server, client };
}
after(async () => {
  for (const client of s3Clients) client.destroy();
  if (s3ServerStarted) await (await s3ServerStarted).close();
});

async function bucketKeys(client: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return keys;
}

for (const prefix of ['', 'results/']) {
  blobStoreContract(`S3BlobStore on s3rver${prefix ? ` with prefix ${prefix}` : ''}`, async () => {
    const { server, client } = await s3Client();
    return {
      store: prefix ? new S3BlobStore(client, server.bucket, prefix) : new S3BlobStore(client, server.bucket),
      stored: () => bucketKeys(client, server.bucket),
      location: (key) => prefix + key,
      close: async () => {},
    };
  });
}

blobStoreContract('MemoryCachedBlobStore in front of S3BlobStore', async () => {
  const { server, client } = await s3Client();
  return {
    store: new MemoryCachedBlobStore(new S3BlobStore(client, server.bucket, 'memory-cached/'), 1024 * 1024),
    stored: () => bucketKeys(client, server.bucket),
    location: (key) => `memory-cached/${key}`,
    close: async () => {},
  };
});

// ---- namespaces ----

/** Stores with different prefixes on one backing storage never see each other's keys. */
async function assertNamespacesSeparate(plain: BlobStore, cache: BlobStore, results: BlobStore): Promise<void> {
  const key = newKey();
  const [a, b, c] = [pseudoRandomBytes(300, 11), pseudoRandomBytes(300, 12), pseudoRandomBytes(300, 13)];
  await cache.put(key, a);
  assert.equal(await results.get(key), undefined);
  assert.equal(await plain.get(key), undefined);
  await results.put(key, b);
  await plain.put(key, c);
  assert.ok((await cache.get(key))?.equals(a));
  assert.ok((await results.get(key))?.equals(b));
  assert.ok((await plain.get(key))?.equals(c));
  await cache.delete(key);
  assert.equal(await cache.get(key), undefined);
  assert.ok((await results.get(key))?.equals(b));
  assert.ok((await plain.get(key))?.equals(c));
}

for (const engine of ENGINES) {
  describe(`DatabaseBlobStore namespaces on ${engine}`, () => {
    let database: Awaited<ReturnType<typeof openDatabase>>;
    before(async () => {
      database = await openDatabase(engine);
    });
    after(async () => {
      await database?.close();
    });

    it('stores with different prefixes share the table without seeing each other', async () => {
      const { db } = database;
      await assertNamespacesSeparate(new DatabaseBlobStore(db), new DatabaseBlobStore(db, 'cache/'), new DatabaseBlobStore(db, 'results/'));
      const keys = await tableKeys(db);
      assert.ok(keys.some((k) => k.startsWith('results/')));
      assert.ok(keys.some((k) => /^[0-9a-f]{64}\.png$/.test(k)));
    });

    it('refuses prefixes that could escape or overflow the key column', () => {
      for (const prefix of ['../', './', '/abs/', 'a/../', 'a//', 'a b/', 'cache', `${'x'.repeat(30)}/`])
        assert.throws(() => new DatabaseBlobStore(database.db, prefix), /unsafe blob key prefix/, prefix);
    });
  });
}

// ---- what only the S3 store does ----

describe('S3BlobStore on s3rver: objects, presigned URLs', () => {
  const prefix = 'results/';
  let server: S3TestServer;
  let client: S3Client;
  let store: S3BlobStore;
  before(async () => {
    ({ server, client } = await s3Client());
    store = new S3BlobStore(client, server.bucket, prefix);
  });

  it('keeps objects at prefix + key, with a Content-Type from the extension', async () => {
    const key = newKey();
    await store.put(key, pseudoRandomBytes(123, 21));
    const head = await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: `${prefix}${key}` }));
    assert.equal(head.ContentLength, 123);
    assert.equal(head.ContentType, 'image/png');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: prefix }));
    assert.ok(listed.Contents?.some((o) => o.Key === `${prefix}${key}`));
    await assert.rejects(client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: key })), { name: 'NotFound' });
    assert.ok(!(await bucketKeys(client, server.bucket)).includes(key));
  });

  it('namespaces with different prefixes share the bucket without seeing each other', async () => {
    await assertNamespacesSeparate(
      new S3BlobStore(client, server.bucket),
      new S3BlobStore(client, server.bucket, 'cache/'),
      new S3BlobStore(client, server.bucket, 'results/'),
    );
  });

  it('throws on a missing bucket instead of answering "missing key"', async () => {
    await assert.rejects(new S3BlobStore(client, 'no-such-bucket').get(newKey()), { name: 'NoSuchBucket' });
  });

  it('accepts the prefixes S3_PREFIX allows and refuses the ones that could escape', () => {
    for (const prefix of ['', 'render-service/', 'Tenant_A/v1.2/cache/']) new S3BlobStore(client, server.bucket, prefix);
    for (const prefix of ['../', 'a/./', '/abs/', 'a//', 'no-slash', 'a?b/'])
      assert.throws(() => new S3BlobStore(client, server.bucket, prefix), /unsafe blob key prefix/, prefix);
  });

  it('refuses half a set of credentials', () => {
    assert.throws(() => createS3Client({ region: 'us-east-1', forcePathStyle: true, accessKeyId: 'S3RVER' }), /both/);
  });

  it('presigns a GET that plain fetch, without credentials, downloads with the requested headers', async () => {
    const key = newKey();
    const bytes = pseudoRandomBytes(2048, 22);
    await store.put(key, bytes);
    const url = await store.presignGet(key, { expiresInSeconds: 60, contentType: 'image/png', filename: 'sunset render.png' });
    assert.ok(url.startsWith(`${server.endpoint}/${server.bucket}/${prefix}${key}?`), url);
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="sunset render.png"');
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes));
  });

  it('quotes a filename safely and gives a non-ASCII one as filename*', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('x'));
    const response = await fetch(await store.presignGet(key, { expiresInSeconds: 60, filename: 'a "q"\\é.png' }));
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="a _q___.png"; filename*=UTF-8''a%20%22q%22%5C%C3%A9.png`,
    );
    await response.arrayBuffer();
  });

  it('refuses the object to a request without credentials', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('private'));
    const response = await fetch(`${server.endpoint}/${server.bucket}/${prefix}${key}`);
    assert.equal(response.status, 403);
    assert.match(await response.text(), /AccessDenied/);
  });

  it('refuses a URL that expired (signed an hour ago for 60 seconds)', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('stale'));
    const url = await store.presignGet(key, { expiresInSeconds: 60, now: new Date(Date.now() - 3_600_000) });
    const response = await fetch(url);
    assert.equal(response.status, 403);
    assert.match(await response.text(), /Request has expired/);
  });

  it('refuses tampered URLs: another key, another response header, another signature', async () => {
    const [key, other] = [newKey(), newKey()];
    await store.put(key, Buffer.from('signed for this one'));
    await store.put(other, Buffer.from('not this one'));
    const url = new URL(await store.presignGet(key, { expiresInSeconds: 60, contentType: 'image/png' }));

    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace(key, other);
    const otherType = new URL(url);
    otherType.searchParams.set('response-content-type', 'text/html');
    const otherSignature = new URL(url);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    otherSignature.searchParams.set('X-Amz-Signature', `${signature[0] === '0' ? '1' : '0'}${signature.slice(1)}`);

    for (const tampered of [otherKey, otherType, otherSignature]) {
      const response = await fetch(tampered);
      assert.equal(response.status, 403, tampered.toString());
      assert.match(await response.text(), /SignatureDoesNotMatch/);
    }
    const untouched = await fetch(url);
    assert.equal(untouched.status, 200);
    assert.equal(await untouched.text(), 'signed for this one');
  });

  it('refuses lifetimes S3 cannot sign', async () => {
    for (const expiresInSeconds of [0, -1, 1.5, 604_801])
      await assert.rejects(store.presignGet(newKey(), { expiresInSeconds }), /lifetime/, String(expiresInSeconds));
  });
});
