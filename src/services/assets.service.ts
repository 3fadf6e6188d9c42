// Assets (#42): the images and fonts a workspace uploads for its templates. An upload is checked
// and normalized before anything is stored (src/assets/asset-files.ts, font-check.ts); its id is
// derived from its bytes, so the same file is the same asset (200 the second time, and a deleted one
// is restored). A delete is soft: the asset leaves the list and GET, new templates cannot reference
// it (`describe` says so), and template versions that use it keep rendering (`loadForRender` reads
// deleted assets too). Everything is scoped to the workspace: another workspace's asset answers 404
// `asset_not_found` exactly like a missing one.
import type { components } from '../../codegen/openapi.ts';
import type { AssetRecord, AssetsRepository } from '../../db/repositories/assets.repository.ts';
import {
  type AssetLimits,
  type AssetMediaType,
  ASSET_MEDIA_TYPES,
  assetIdOf,
  assetMediaType,
  assetTooLarge,
  checkMagic,
  isAssetMediaType,
  maxBytesOf,
  unsupportedAssetType,
  normalizeImage,
  sha256Of,
} from '../assets/asset-files.ts';
import { type FontCheckOptions, type FontFacts, checkFont } from '../assets/font-check.ts';
import type { BlobStore } from '../blob/blob-store.ts';
import { ProblemError } from '../errors/problem.ts';
import { decodeCursor, pageOf } from '../lib/page-cursor.ts';
import type { Clock } from '../lib/clock.ts';

export type AssetView = components['schemas']['Asset'];

/** An asset as template validation needs it: the view and whether it was deleted (a deleted asset cannot be newly referenced). */
export type AssetDescription = AssetView & { deleted: boolean };

/** An asset as the render path needs it: the stored file (an image's normalized PNG, a font as uploaded). */
export interface RenderAsset {
  kind: 'image' | 'font';
  /** SHA-256 (hex) of the uploaded file: what a template version pins. */
  sha256: string;
  /** The stored file's type: `image/png` for every image (normalized), the uploaded type for a font (`font/woff2` is still WOFF2). */
  contentType: string;
  data: Buffer;
}

export interface AssetsServiceOptions {
  repo: AssetsRepository;
  /** Where the files are: the `assets/` namespace of the blob store (BLOB_STORE). */
  store: BlobStore;
  clock: Clock;
  limits: AssetLimits & { maxPerWorkspace: number };
  /** The font checker's deadline and memory (font-check.ts defaults). */
  fontCheck?: FontCheckOptions;
  /** Images decoded, and fonts checked, at once (default 2 of each): an image may hold maxPixels × 4 bytes of pixels, a font's thread 256 MB. */
  decodeConcurrency?: number;
}

const EXTENSIONS: Record<AssetMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'png',
  'image/webp': 'png',
  'font/ttf': 'ttf',
  'font/otf': 'otf',
  'font/woff2': 'woff2',
};

export const notFound = (id: string) =>
  new ProblemError('asset_not_found', {
    detail: `No asset ${id} in this workspace.`,
    issues: [{ path: 'asset', message: `${id} is not an asset of this workspace`, keyword: 'exists' }],
    extra: { assetId: id },
  });

export function toView(asset: AssetRecord): AssetView {
  return {
    id: asset.id,
    kind: asset.kind,
    contentType: asset.contentType as AssetView['contentType'],
    bytes: asset.bytes,
    sha256: asset.sha256,
    ...(asset.width !== undefined ? { width: asset.width } : {}),
    ...(asset.height !== undefined ? { height: asset.height } : {}),
    ...(asset.family !== undefined ? { family: asset.family } : {}),
    ...(asset.weight !== undefined ? { weights: [asset.weight] } : {}),
    createdAt: new Date(asset.createdAt).toISOString(),
  };
}

/** At most `n` tasks at once; the others wait their turn in order. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export class AssetsService {
  private readonly repo: AssetsRepository;
  private readonly store: BlobStore;
  private readonly clock: Clock;
  readonly limits: AssetLimits & { maxPerWorkspace: number };
  private readonly fontCheck: FontCheckOptions;
  private readonly decoding: <T>(task: () => Promise<T>) => Promise<T>;
  private readonly fontChecking: <T>(task: () => Promise<T>) => Promise<T>;

  constructor(options: AssetsServiceOptions) {
    ({ repo: this.repo, store: this.store, clock: this.clock, limits: this.limits } = options);
    this.fontCheck = options.fontCheck ?? {};
    this.decoding = limiter(options.decodeConcurrency ?? 2);
    this.fontChecking = limiter(options.decodeConcurrency ?? 2);
  }

  /** The largest body of an upload of this media type and the problem past it; undefined for a type that is not an asset's. */
  uploadLimit(mediaType: string): { limitBytes: number; tooLarge: () => ProblemError } | undefined {
    if (!isAssetMediaType(mediaType)) return undefined;
    return { limitBytes: maxBytesOf(mediaType, this.limits), tooLarge: () => assetTooLarge(mediaType, this.limits) };
  }

  /** 415 `unsupported_asset_type` for a body of another type (none: undefined). */
  unsupportedType(mediaType: string | undefined): ProblemError {
    return unsupportedAssetType(mediaType);
  }

  /**
   * Checks, normalizes and stores one uploaded file. The file is stored before its row, so a row
   * never names a missing file; a refused upload stores nothing (the limit is also checked before
   * any decode, and again with the write).
   */
  async upload(
    workspaceId: string,
    contentTypeHeader: string | undefined,
    body: Buffer | undefined,
  ): Promise<{ status: 'created' | 'restored' | 'existing'; asset: AssetView }> {
    const type = assetMediaType(contentTypeHeader);
    const bytes = body ?? Buffer.alloc(0);
    checkMagic(type, bytes);
    const sha256 = sha256Of(bytes);
    const id = assetIdOf(sha256);
    const existing = await this.repo.find(workspaceId, id);
    if (existing && existing.deletedAt === undefined) return { status: 'existing', asset: toView(existing) };
    if ((await this.repo.countLive(workspaceId)) >= this.limits.maxPerWorkspace) throw this.limitReached();

    const kind = ASSET_MEDIA_TYPES[type];
    const storageKey = `${sha256}.${EXTENSIONS[type]}`;
    const record: AssetRecord = {
      workspaceId,
      id,
      kind,
      contentType: type,
      bytes: bytes.length,
      sha256,
      storageKey,
      createdAt: this.clock.now(),
    };
    if (existing) {
      // A deleted asset's file is still stored: restoring it needs no decode.
    } else if (kind === 'image') {
      const image = await this.decoding(() => normalizeImage(type, bytes, this.limits));
      record.width = image.width;
      record.height = image.height;
      await this.store.put(storageKey, image.png);
    } else {
      const facts: FontFacts = await this.fontChecking(() => checkFont(type, bytes, this.fontCheck));
      record.family = facts.family;
      record.weight = facts.weight;
      await this.store.put(storageKey, bytes);
    }
    const outcome = await this.repo.save(record, this.limits.maxPerWorkspace);
    if (outcome.status === 'limit_reached') throw this.limitReached();
    return { status: outcome.status, asset: toView(outcome.asset) };
  }

  async list(workspaceId: string, options: { limit?: number; cursor?: string }): Promise<{ assets: AssetView[]; next?: string }> {
    const limit = options.limit ?? 20;
    const before = decodeCursor(options.cursor);
    const { page, next } = pageOf(await this.repo.list(workspaceId, { limit: limit + 1, before }), limit);
    return { assets: page.map(toView), ...(next ? { next } : {}) };
  }

  /** A live asset; a deleted one answers 404 like a missing one. */
  async get(workspaceId: string, id: string): Promise<AssetView> {
    const asset = await this.repo.find(workspaceId, id);
    if (!asset || asset.deletedAt !== undefined) throw notFound(id);
    return toView(asset);
  }

  /** Soft delete: 404 when there is no live asset of that id. */
  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.repo.softDelete(workspaceId, id, this.clock.now()))) throw notFound(id);
  }

  /**
   * The asset, deleted or not, with `deleted` (template validation: a deleted asset cannot be newly
   * referenced, while versions that already use it keep rendering). 404 `asset_not_found` when the
   * workspace never had it.
   */
  async describe(workspaceId: string, id: string): Promise<AssetDescription> {
    const asset = await this.repo.find(workspaceId, id);
    if (!asset) throw notFound(id);
    return { ...toView(asset), deleted: asset.deletedAt !== undefined };
  }

  /**
   * The stored files of these assets for a render, deleted ones included (a template version that
   * uses an asset keeps rendering after it is deleted). Throws 404 `asset_not_found` naming the first
   * id the workspace does not have (in the order given).
   */
  async loadForRender(workspaceId: string, ids: string[]): Promise<Map<string, RenderAsset>> {
    const unique = [...new Set(ids)];
    const records = new Map((await this.repo.findMany(workspaceId, unique)).map((r) => [r.id, r]));
    const missing = unique.find((id) => !records.has(id));
    if (missing !== undefined) throw notFound(missing);
    const loaded = new Map<string, RenderAsset>();
    await Promise.all(
      unique.map(async (id) => {
        const record = records.get(id)!;
        const data = await this.store.get(record.storageKey);
        if (!data) throw new Error(`asset ${id} of workspace ${workspaceId}: its file ${record.storageKey} is missing from the blob store`);
        loaded.set(id, {
          kind: record.kind,
          sha256: record.sha256,
          contentType: record.kind === 'image' ? 'image/png' : record.contentType,
          data,
        });
      }),
    );
    return new Map(unique.map((id) => [id, loaded.get(id)!]));
  }

  private limitReached(): ProblemError {
    return new ProblemError('asset_limit_reached', {
      detail: `A workspace can hold at most ${this.limits.maxPerWorkspace} assets. Delete unused assets first.`,
      extra: { limit: this.limits.maxPerWorkspace },
    });
  }
}
