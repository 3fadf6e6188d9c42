// Where rendered bytes live (the render cache and job results): files under DATA_DIR, the Postgres
// database, or an S3 bucket; and how long a presigned result link lasts.
import { isSafeKeyPrefix } from '../lib/key-prefix.ts';
import { secureUrl } from './addresses.ts';
import type { EnvReader } from './env-reader.ts';

/** Where rendered bytes live (BLOB_STORE): the render cache and job results. */
export type BlobStoreConfig =
  | { readonly kind: 'fs'; readonly root: string }
  | { readonly kind: 'database' }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      /** Prepended to every object name (e.g. `render-service/`), so one bucket can hold other things too. */
      readonly prefix: string;
      readonly region: string;
      /** An S3-compatible endpoint (MinIO, R2, …); undefined means AWS. */
      readonly endpoint: string | undefined;
      readonly forcePathStyle: boolean;
      /** Explicit credentials; undefined means the AWS SDK's default chain (environment, profile, instance role). */
      readonly accessKeyId: string | undefined;
      readonly secretAccessKey: string | undefined;
    };

export interface StorageConfig {
  readonly blobStore: BlobStoreConfig;
  /** Lifetime of a presigned result URL (`resultUrl` when the blob store can presign), in seconds. */
  readonly resultUrlTtlSeconds: number;
}

export function parseStorage(
  read: EnvReader,
  { localMode, onPostgres, dataDir }: { localMode: boolean; onPostgres: boolean; dataDir: string },
): StorageConfig {
  return {
    blobStore: parseBlobStore(read, localMode, onPostgres, dataDir),
    resultUrlTtlSeconds: read.int('RESULT_URL_TTL_SECONDS', 900, 10, 7 * 24 * 3600),
  };
}

function parseBlobStore({ str, bool, problems }: EnvReader, localMode: boolean, onPostgres: boolean, dataDir: string): BlobStoreConfig {
  const kind = str('BLOB_STORE')?.toLowerCase() ?? (onPostgres ? 'database' : 'fs');
  const s3Settings = [
    'S3_BUCKET',
    'S3_PREFIX',
    'S3_REGION',
    'S3_ENDPOINT',
    'S3_FORCE_PATH_STYLE',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
  ];
  if (kind !== 's3') {
    const stray = s3Settings.filter((name) => str(name) !== undefined);
    // Set but unused, they would leave an operator believing files go to the bucket.
    if (stray.length > 0) problems.push(`${stray.join(', ')} only apply with BLOB_STORE=s3 (BLOB_STORE is "${kind}")`);
  }
  if (kind === 'fs') {
    // Files on one machine's disk: every hosted process must see the same files, which only one machine can.
    if (!localMode) problems.push('BLOB_STORE=fs is for local mode; hosted mode uses BLOB_STORE=database or BLOB_STORE=s3');
    return { kind: 'fs', root: dataDir };
  }
  if (kind === 'database') {
    if (!onPostgres) problems.push('BLOB_STORE=database needs a Postgres DATABASE_URL; on SQLite use BLOB_STORE=fs');
    return { kind: 'database' };
  }
  if (kind !== 's3') {
    problems.push(`BLOB_STORE must be fs, database or s3 (got "${kind}")`);
    return { kind: 'fs', root: dataDir };
  }
  const bucket = str('S3_BUCKET');
  if (bucket === undefined) problems.push('S3_BUCKET is required when BLOB_STORE=s3');
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push(`S3_BUCKET must be a bucket name (got "${bucket}")`);
  const prefix = str('S3_PREFIX') ?? '';
  if (!isSafeKeyPrefix(prefix)) problems.push(`S3_PREFIX must be a path ending in "/" such as render-service/ (got "${prefix}")`);
  const endpointRaw = str('S3_ENDPOINT');
  const endpoint = endpointRaw !== undefined ? secureUrl('S3_ENDPOINT', endpointRaw, problems) : undefined;
  const accessKeyId = str('S3_ACCESS_KEY_ID');
  const secretAccessKey = str('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)');
  return {
    kind: 's3',
    bucket: bucket ?? '',
    prefix,
    region: str('S3_REGION') ?? 'us-east-1',
    endpoint,
    // Most S3-compatible servers (MinIO, s3rver) want path-style URLs; AWS prefers virtual hosts.
    forcePathStyle: bool('S3_FORCE_PATH_STYLE') ?? endpoint !== undefined,
    accessKeyId,
    secretAccessKey,
  };
}
