// Blobs in an S3-compatible bucket (AWS S3, MinIO, R2, s3rver in tests): one object per key at
// `${prefix}${key}`, shared by every process that has the bucket, and presigned URLs so clients
// can download results straight from the bucket.
import { DependencyUnavailableError, isConnectionFailure } from '../lib/dependency-failure.ts';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { FORMATS } from '../lib/formats.ts';
import { type BlobStore, assertSafeKey, assertSafePrefix } from './blob-store.ts';

export interface S3ClientOptions {
  /** An S3-compatible server's URL (MinIO, R2, s3rver); unset for AWS itself. */
  endpoint?: string;
  region: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export function createS3Client(options: S3ClientOptions): S3Client {
  const { accessKeyId, secretAccessKey } = options;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error('S3 credentials need both an access key id and a secret access key');
  return new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // Explicit keys when configured; otherwise the SDK's default chain (environment, shared config
    // files, SSO, web identity, container and instance roles), so a deployment can use an IAM role.
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    // Since 3.729 the SDK adds CRC32 checksums to every upload by default, sent as aws-chunked
    // trailers, which s3rver and many S3-compatible servers reject (or store the chunk framing as
    // the object). Checksums only where an operation requires one, as before.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A stalled connection fails (and is retried) instead of hanging a render or a job.
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

/** The object's Content-Type, from the key's extension through the one table of formats. */
function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return Object.values(FORMATS).find((f) => f.extension === extension)?.contentType ?? 'application/octet-stream';
}

/** `attachment; filename="…"`, quoted-string safe; a non-ASCII name also gets an RFC 5987 `filename*`. */
function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === filename) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function isMissingKey(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  // GetObject names it NoSuchKey; a 404 without a body (HEAD, some S3-compatible servers) is NotFound.
  // A missing bucket is a misconfiguration, not a missing blob.
  return err.name === 'NoSuchKey' || (err.$metadata.httpStatusCode === 404 && err.name !== 'NoSuchBucket');
}

/**
 * A store that cannot be reached or answers 5xx (a restart, an outage, throttling) is unavailable
 * for now, and says so (503 and Retry-After to a client, a wait or a retry for a job). Refusals
 * (a missing bucket, refused credentials) are misconfigurations and pass through as they are.
 */
function asUnavailable(err: unknown): unknown {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata?.httpStatusCode ?? 0;
    return status >= 500 || status === 429 || err.name === 'SlowDown' ? new DependencyUnavailableError('storage', err) : err;
  }
  const name = (err as { name?: unknown })?.name;
  return isConnectionFailure(err) || name === 'TimeoutError' || name === 'RequestTimeout'
    ? new DependencyUnavailableError('storage', err)
    : err;
}

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix = '',
  ) {
    assertSafePrefix(prefix);
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return this.prefix + key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const Key = this.objectKey(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      if (!response.Body) return Buffer.alloc(0);
      const bytes = await response.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (err) {
      if (isMissingKey(err)) return undefined;
      throw asUnavailable(err);
    }
  }

  /** Keys are content addresses: a second put of the same key writes the same bytes over one object. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const Key = this.objectKey(key);
    await this.client
      .send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: bytes, ContentLength: bytes.byteLength, ContentType: contentTypeOf(key) }),
      )
      .catch((err: unknown) => Promise.reject(asUnavailable(err)));
  }

  /** S3 deletes are idempotent: deleting a missing object succeeds. */
  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key }))
      .catch((err: unknown) => Promise.reject(asUnavailable(err)));
  }

  async presignGet(
    key: string,
    options: { expiresInSeconds: number; contentType?: string; filename?: string; now?: Date },
  ): Promise<string> {
    const Key = this.objectKey(key);
    const { expiresInSeconds } = options;
    // SigV4 presigned URLs live at most a week.
    if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 604_800)
      throw new Error(`presigned URL lifetime must be 1–604800 seconds: ${expiresInSeconds}`);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key,
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.filename === undefined ? undefined : attachmentDisposition(options.filename),
    });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds, signingDate: options.now });
  }
}
