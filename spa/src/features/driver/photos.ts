/** Photos from the phone's camera: PNG and JPEG are kept as they are (when not huge); anything else
 * (HEIC, WebP…) or a large picture is redrawn as a JPEG of at most 1600 px, as the server accepts
 * PNG and JPEG proof only. */
const MAX_BYTES = 2_500_000;
const MAX_SIDE = 1600;

export interface PhotoFile {
  bytes: ArrayBuffer;
  type: string;
  name: string;
}

export async function preparePhoto(file: File): Promise<PhotoFile> {
  const ok = file.type === 'image/png' || file.type === 'image/jpeg';
  if (ok && file.size <= MAX_BYTES) return { bytes: await file.arrayBuffer(), type: file.type, name: file.name || 'photo' };
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    if (blob) return { bytes: await blob.arrayBuffer(), type: 'image/jpeg', name: 'photo.jpg' };
  } catch {
    /* fall through: send the file as it is; the server says if it cannot take it */
  }
  return { bytes: await file.arrayBuffer(), type: file.type || 'application/octet-stream', name: file.name || 'photo' };
}

export function canvasPng(canvas: HTMLCanvasElement): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob.arrayBuffer()) : reject(new Error('The signature could not be saved.'))), 'image/png');
  });
}
