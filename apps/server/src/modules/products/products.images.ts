import sharp from 'sharp';
import { AppError } from '../../lib/errors.js';
import { type Storage, contentHash8 } from '../../lib/storage.js';

/** The WebP sizes every product image is stored in (longest side, px). `detail` is the DTO's URL. */
export const IMAGE_SIZES = { card: 480, detail: 960, thumb: 160 } as const;
export type ImageSize = keyof typeof IMAGE_SIZES;

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
export const NOT_AN_IMAGE = 'Images must be JPEG, PNG, WebP or GIF files';
/** A small file can still decode to a huge bitmap (a decompression bomb): 40 megapixels is plenty. */
const MAX_PIXELS = 40_000_000;

export interface ProcessedImage {
  /** First 8 hex digits of the SHA-256 of the uploaded bytes: the same upload, the same keys. */
  hash: string;
  sizes: Record<ImageSize, Buffer>;
}

/** Refuses anything that is not, by its content, a JPEG, PNG, WebP or GIF; names and types are never trusted. */
async function checkImage(bytes: Buffer): Promise<void> {
  let format: string | undefined;
  let pixels = 0;
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw new AppError(400, NOT_AN_IMAGE, 'NOT_AN_IMAGE');
  }
  if (!format || !ACCEPTED_FORMATS.has(format) || pixels <= 0) {
    throw new AppError(400, NOT_AN_IMAGE, 'NOT_AN_IMAGE');
  }
  if (pixels > MAX_PIXELS) throw new AppError(400, 'Images must be at most 40 megapixels', 'IMAGE_TOO_BIG');
}

async function resize(bytes: Buffer, px: number): Promise<Buffer> {
  return sharp(bytes, { limitInputPixels: MAX_PIXELS })
    .rotate() // applies the EXIF orientation, then drops the metadata
    .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

/** Checks every file first (nothing is resized or stored if one is bad), then makes the WebP sizes. */
export async function processImages(files: Buffer[]): Promise<ProcessedImage[]> {
  for (const file of files) await checkImage(file);
  const processed: ProcessedImage[] = [];
  for (const file of files) {
    try {
      processed.push({
        hash: contentHash8(file),
        sizes: {
          card: await resize(file, IMAGE_SIZES.card),
          detail: await resize(file, IMAGE_SIZES.detail),
          thumb: await resize(file, IMAGE_SIZES.thumb),
        },
      });
    } catch {
      // The header was fine but the image data is not (a truncated file, say).
      throw new AppError(400, NOT_AN_IMAGE, 'NOT_AN_IMAGE');
    }
  }
  return processed;
}

export const imageKey = (productId: string, hash: string, size: ImageSize) =>
  `products/${productId}/${hash}-${size}.webp`;

/** Stores every size; answers the detail-size URL of each image, by position, and the keys written. */
export async function storeImages(
  storage: Storage,
  productId: string,
  images: ProcessedImage[],
): Promise<{ urls: string[]; keys: string[] }> {
  const urls: string[] = [];
  const keys: string[] = [];
  for (const image of images) {
    let detailUrl = '';
    for (const size of Object.keys(IMAGE_SIZES) as ImageSize[]) {
      const key = imageKey(productId, image.hash, size);
      const url = await storage.put(key, image.sizes[size], 'image/webp');
      keys.push(key);
      if (size === 'detail') detailUrl = url;
    }
    urls.push(detailUrl);
  }
  return { urls, keys };
}
