import { describe, expect, it } from 'vitest'
import { parsePrefill } from './prefill.ts'

const currencies = ['eur', 'usd', 'gbp', 'pln', 'sek', 'myr', 'aud']
const parse = (query: string) => parsePrefill(new URLSearchParams(query), currencies)

describe('link prefill (spec §5)', () => {
  it('reads every parameter of a valid link', () => {
    expect(parse('user=seller&model=online&cur=eur&price=12.34&desc=Red%20bike')).toEqual({
      values: { role: 'seller', model: 'online', currency: 'eur', price: '12.34', description: 'Red bike' },
      invalid: [],
    })
  })

  it('accepts user case-insensitively and lowercases it', () => {
    expect(parse('user=BUYER').values.role).toBe('buyer')
    expect(parse('user=Seller').values.role).toBe('seller')
    expect(parse('user=admin')).toEqual({ values: {}, invalid: ['user'] })
  })

  it('accepts only valid transaction models', () => {
    expect(parse('model=F2F').values.model).toBe('f2f')
    expect(parse('model=f').values.model).toBe('f2f')
    expect(parse('model=Online').values.model).toBe('online')
    expect(parse('model=auction').invalid).toEqual(['model'])
  })

  it('accepts a currency from the supported list only, lowercased', () => {
    expect(parse('cur=PLN').values.currency).toBe('pln')
    expect(parse('cur=jpy').invalid).toEqual(['cur'])
    expect(parse('cur=').invalid).toEqual(['cur'])
  })

  it('accepts a price that is a non-empty number', () => {
    expect(parse('price=100').values.price).toBe('100')
    expect(parse('price=0.5').values.price).toBe('0.5')
    for (const bad of ['', 'abc', '-5', '12,34', '1e3', '12.']) {
      expect(parse(`price=${encodeURIComponent(bad)}`).invalid, bad).toEqual(['price'])
    }
  })

  it('accepts a face-to-face deposit as it accepts a price', () => {
    expect(parse('model=f2f&deposit=50').values).toEqual({ model: 'f2f', deposit: '50' })
    for (const bad of ['', 'abc', '-5', '1e3']) {
      expect(parse(`deposit=${encodeURIComponent(bad)}`).invalid, bad).toEqual(['deposit'])
    }
  })

  it('accepts a non-empty description and keeps its case', () => {
    expect(parse('desc=%20iPhone%2015%20Pro%20').values.description).toBe('iPhone 15 Pro')
    expect(parse('desc=%20%20').invalid).toEqual(['desc'])
  })

  it('reports every invalid parameter and still uses the valid ones', () => {
    expect(parse('user=x&model=y&cur=zzz&price=&desc=&unrelated=1')).toEqual({
      values: {},
      invalid: ['user', 'model', 'cur', 'price', 'desc'],
    })
    expect(parse('user=buyer&cur=xxx')).toEqual({ values: { role: 'buyer' }, invalid: ['cur'] })
  })

  it('prefills nothing and reports nothing without parameters', () => {
    expect(parse('')).toEqual({ values: {}, invalid: [] })
  })
})
