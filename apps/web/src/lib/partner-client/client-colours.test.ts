import { describe, expect, it } from 'vitest'
import { clientColours, contrastRatio } from './client-colours.ts'

describe('clientColours', () => {
  it('keeps a readable pair, and a dark background becomes the primary colour', () => {
    expect(clientColours('#1d3557', '#ffffff')).toEqual({
      barBackground: '#1d3557',
      barText: '#ffffff',
      primary: { main: '#1d3557', contrastText: '#ffffff' },
    })
  })

  it('replaces a text colour that does not contrast enough, and keeps a light background out of the primary colour', () => {
    const colours = clientColours('#ffeb3b', '#ffffff')
    expect(colours.barText).toBe('#000000')
    expect(colours.primary).toBeNull()
    expect(clientColours('#333', '#444').barText).toBe('#ffffff')
  })

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
  })
})
