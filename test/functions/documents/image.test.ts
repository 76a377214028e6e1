import { createCanvas } from '@napi-rs/canvas';
import UTIF from 'utif2';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ReadFailure } from '../../../functions/documents/doc.ts';
import { decodeImage, imageHeaderSize, type ImageKind } from '../../../functions/documents/image.ts';

/** 300×200, white, with a black 100×50 block at (50, 40): easy to check after decoding. */
function drawing(mime: 'image/png' | 'image/jpeg' | 'image/webp'): Buffer {
  const canvas = createCanvas(300, 200);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 300, 200);
  context.fillStyle = '#000000';
  context.fillRect(50, 40, 100, 50);
  return mime === 'image/png' ? canvas.toBuffer('image/png') : mime === 'image/jpeg' ? canvas.toBuffer('image/jpeg') : canvas.toBuffer('image/webp');
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** A PNG with a pHYs chunk (pixels per metre, unit 1) inserted after IHDR. */
function withPhys(png: Buffer, dpi: number): Buffer {
  const phys = Buffer.alloc(9);
  const perMetre = Math.round(dpi / 0.0254);
  phys.writeUInt32BE(perMetre, 0);
  phys.writeUInt32BE(perMetre, 4);
  phys[8] = 1;
  return Buffer.concat([png.subarray(0, 33), chunk('pHYs', phys), png.subarray(33)]);
}

/**
 * Grey 8-bit uncompressed directories with the pixels after them (utif2 writes the directories).
 * Small results of Buffer.concat are views into Node's shared pool, as uploaded bytes often are.
 */
function tiff(frames: Array<{ width: number; height: number; value: number; dpi?: number; thumbnail?: boolean; compression?: number }>): Uint8Array {
  const directories = (start: number) => {
    let offset = start;
    return frames.map((frame) => {
      const directory = {
        t254: [frame.thumbnail ? 1 : 0],
        t256: [frame.width],
        t257: [frame.height],
        t258: [8],
        t259: [frame.compression ?? 1],
        t262: [1], // black is zero
        t273: [offset],
        t277: [1],
        t278: [frame.height],
        t279: [frame.width * frame.height],
        t282: [[frame.dpi ?? 72, 1]],
        t283: [[frame.dpi ?? 72, 1]],
        t296: [2],
      };
      offset += frame.width * frame.height;
      return directory as unknown as UTIF.IFD;
    });
  };
  const headerLength = UTIF.encode(directories(0)).byteLength;
  const header = new Uint8Array(UTIF.encode(directories(headerLength)));
  const pixels = frames.map((frame) => new Uint8Array(frame.width * frame.height).fill(frame.value));
  return Buffer.concat([header, ...pixels]);
}

async function failure(promise: Promise<unknown>): Promise<ReadFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReadFailure);
  return error as ReadFailure;
}

describe('decodeImage', () => {
  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
  ] as const)('decodes %s to one grey frame of the right size', async (kind, mime) => {
    const bytes = drawing(mime);
    expect(imageHeaderSize(bytes, kind)).toEqual({ width: 300, height: 200 });
    const frames = await decodeImage(bytes, kind);
    expect(frames).toHaveLength(1);
    const [frame] = frames;
    expect([frame.width, frame.height, frame.data.length, frame.dpi]).toEqual([300, 200, 60_000, 72]);
    expect(frame.data[65 * 300 + 100]).toBeLessThan(20); // inside the block
    expect(frame.data[150 * 300 + 250]).toBeGreaterThan(235); // paper
  });

  it('reads transparent pixels as white paper', async () => {
    const canvas = createCanvas(40, 30); // fully transparent
    canvas.getContext('2d').fillRect(0, 0, 10, 10); // one black corner
    const [frame] = await decodeImage(canvas.toBuffer('image/png'), 'png');
    expect(frame.data[5 * 40 + 5]).toBe(0);
    expect(frame.data[20 * 40 + 30]).toBe(255);
  });

  it('takes the dpi from PNG pHYs, JPEG JFIF density and TIFF XResolution', async () => {
    const [png] = await decodeImage(withPhys(drawing('image/png'), 300), 'png');
    expect(png.dpi).toBe(300);

    const jpeg = Buffer.from(drawing('image/jpeg'));
    expect(jpeg.subarray(6, 11).toString('latin1')).toBe('JFIF\0');
    jpeg[13] = 1; // units: dots per inch
    jpeg.writeUInt16BE(200, 14);
    jpeg.writeUInt16BE(200, 16);
    const [fromJpeg] = await decodeImage(jpeg, 'jpeg');
    expect(fromJpeg.dpi).toBe(200);

    const [fromTiff] = await decodeImage(tiff([{ width: 8, height: 8, value: 0, dpi: 150 }]), 'tiff');
    expect(fromTiff.dpi).toBe(150);
  });

  it('decodes every page of a multi-frame TIFF, skipping thumbnails', async () => {
    const bytes = tiff([
      { width: 120, height: 80, value: 0, dpi: 200 },
      { width: 30, height: 20, value: 50, thumbnail: true },
      { width: 64, height: 96, value: 200, dpi: 200 },
    ]);
    expect(imageHeaderSize(bytes, 'tiff')).toEqual({ width: 120, height: 80, frames: 2 });
    const frames = await decodeImage(bytes, 'tiff');
    expect(frames.map((f) => [f.width, f.height, f.dpi])).toEqual([
      [120, 80, 200],
      [64, 96, 200],
    ]);
    expect(frames[0].data.every((v) => v === 0)).toBe(true);
    expect(frames[1].data.every((v) => v === 200)).toBe(true);
  });

  it('refuses a 20,000×20,000 image from its header alone, fast', async () => {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(20_000, 0);
    header.writeUInt32BE(20_000, 4);
    header.set([8, 0, 0, 0, 0], 8); // 8-bit grey
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), Buffer.alloc(16)]);
    expect(imageHeaderSize(png, 'png')).toEqual({ width: 20_000, height: 20_000 });
    const started = performance.now();
    const error = await failure(decodeImage(png, 'png'));
    expect(performance.now() - started).toBeLessThan(100);
    expect(error.message).toBe('The image is 20000×20000 pixels; the limit is 100 megapixels.');

    // A JPEG whose frame header says 30,000×30,000, and a TIFF frame of 12,000×12,000.
    const sof = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x75, 0x30, 0x75, 0x30, 0x01, 0x01, 0x11, 0x00]);
    expect(imageHeaderSize(sof, 'jpeg')).toEqual({ width: 30_000, height: 30_000 });
    expect((await failure(decodeImage(sof, 'jpeg'))).message).toMatch(/30000×30000 pixels/);
    const big = tiff([{ width: 12_000, height: 12_000, value: 0 }]).subarray(0, 400); // pixels not needed
    expect((await failure(decodeImage(big, 'tiff'))).message).toMatch(/12000×12000 pixels/);
  });

  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
  ] as const)('refuses a truncated %s with a ReadFailure (the decoder would crash or hang on some)', async (kind, mime) => {
    const bytes = drawing(mime);
    for (const length of [0, 1, 10, 40, Math.floor(bytes.length * 0.6), bytes.length - 3]) {
      const error = await failure(decodeImage(bytes.subarray(0, length), kind));
      expect(error.message, `cut at ${length}`).toMatch(new RegExp(`^The ${kind.toUpperCase()} image cannot be read: `));
    }
  });

  it('refuses a truncated TIFF', async () => {
    const bytes = tiff([
      { width: 50, height: 50, value: 0 },
      { width: 50, height: 50, value: 0 },
    ]);
    for (const length of [3, 20, bytes.length - 100]) {
      expect((await failure(decodeImage(bytes.subarray(0, length), 'tiff'))).message).toMatch(/TIFF image cannot be read/);
    }
  });

  it('refuses a TIFF whose directory chain loops (utif2 alone would never return)', async () => {
    const bytes = tiff([{ width: 10, height: 10, value: 0 }]);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const first = view.getUint32(4); // utif2 writes big-endian
    view.setUint32(first + 2 + view.getUint16(first) * 12, first); // "next directory" = itself
    expect((await failure(decodeImage(bytes, 'tiff'))).message).toMatch(/loops/);
  });

  it('refuses TIFF compressions utif2 would turn into blank pages', async () => {
    const error = await failure(decodeImage(tiff([{ width: 10, height: 10, value: 0, compression: 34712 }]), 'tiff'));
    expect([error.code, error.message]).toEqual(['document_unsupported', 'TIFF compression 34712 is not supported.']);
  });

  it('refuses a TIFF colour model utif2 cannot convert (it would come out as a blank page)', async () => {
    const bytes = tiff([{ width: 10, height: 10, value: 0 }]);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const first = view.getUint32(4);
    for (let entry = first + 2; entry < first + 2 + view.getUint16(first) * 12; entry += 12) {
      if (view.getUint16(entry) === 262) view.setUint16(entry + 8, 9); // PhotometricInterpretation: CIELab
    }
    expect((await failure(decodeImage(bytes, 'tiff'))).message).toMatch(/colour format that cannot be decoded/);
  });

  it('refuses a PNG whose image data fails its CRC', async () => {
    const png = Buffer.from(drawing('image/png'));
    const idat = png.indexOf('IDAT');
    png[idat + 10] ^= 0xff;
    expect((await failure(decodeImage(png, 'png'))).message).toBe('The PNG image cannot be read: the IDAT chunk is corrupt (CRC mismatch).');
  });

  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
  ] as const)('survives damaged %s image data that passes the structure checks (Skia crashes on some)', async (kind, mime) => {
    const original = drawing(mime);
    let random = 12345;
    const next = () => (random = (random * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const outcomes: string[] = [];
    for (let round = 0; round < 8; round += 1) {
      const damaged = Buffer.from(original);
      // Damage the compressed data (past the headers), then repair PNG CRCs so only the data is wrong.
      for (let n = 0; n < 12; n += 1) damaged[60 + Math.floor(next() * (damaged.length - 70))] = Math.floor(next() * 256);
      if (kind === 'png') {
        for (let at = 8; at + 12 <= damaged.length; ) {
          const length = damaged.readUInt32BE(at);
          if (at + 12 + length > damaged.length) break;
          damaged.writeUInt32BE(crc32(damaged.subarray(at + 4, at + 8 + length)), at + 8 + length);
          at += 12 + length;
        }
      }
      const result = await decodeImage(damaged, kind).then(
        (frames) => `decoded ${frames[0].width}×${frames[0].height}`,
        (error: unknown) => {
          expect(error).toBeInstanceOf(ReadFailure);
          return (error as Error).message;
        },
      );
      outcomes.push(result);
    }
    const crashes = outcomes.filter((o) => o.includes('crashed')).length;
    const decoded = outcomes.filter((o) => o.startsWith('decoded')).length;
    console.log(`damaged ${kind}: ${decoded} decoded, ${8 - decoded} refused (${crashes} by a decoder crash, contained)`);
    expect(outcomes).toHaveLength(8);
  });
});

describe('imageHeaderSize', () => {
  it('reads WEBP lossy (VP8) and lossless (VP8L) headers', () => {
    const riff = (chunkType: string, body: number[]) => {
      const data = Buffer.from([...body, ...new Array(16).fill(0)]);
      const head = Buffer.alloc(20);
      head.write('RIFF', 0, 'ascii');
      head.writeUInt32LE(12 + data.length, 4);
      head.write('WEBP', 8, 'ascii');
      head.write(chunkType, 12, 'ascii');
      head.writeUInt32LE(data.length, 16);
      return Buffer.concat([head, data]);
    };
    expect(imageHeaderSize(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x20, 0x03, 0x58, 0x02]), 'webp')).toEqual({ width: 800, height: 600 });
    const bits = (1024 - 1) | ((768 - 1) << 14);
    expect(imageHeaderSize(riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24]), 'webp')).toEqual({
      width: 1024,
      height: 768,
    });
  });

  it.each(['png', 'jpeg', 'tiff', 'webp'] as ImageKind[])('returns undefined for a file that is not %s', (kind) => {
    expect(imageHeaderSize(Buffer.from('this is plain text, not an image at all'), kind)).toBeUndefined();
    expect(imageHeaderSize(new Uint8Array(0), kind)).toBeUndefined();
  });
});
