import { encodeQR } from 'qr'
import { useMemo } from 'react'

/** The verification link as a QR code, an SVG image (the page's CSP allows data: images, never inline markup). */
export function VerifyQr({ url, size, alt }: { url: string; size: number; alt: string }) {
  const source = useMemo(
    () => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(encodeQR(url, 'svg', { ecc: 'medium', border: 2 }))}`,
    [url],
  )
  return (
    <img
      src={source}
      width={size}
      height={size}
      alt={alt}
      data-testid="verify-qr"
      style={{ display: 'block', imageRendering: 'pixelated' }}
    />
  )
}
