import { describe, expect, it } from 'vitest'
import { foreignJoinCodeCharacters, joinCodeProgress, readJoinInput } from './join-input.ts'

const listing = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'

describe('reading the join form', () => {
  it('takes a join code in any case, with spaces or a hyphen', () => {
    for (const input of ['ABCD2345', 'abcd2345', ' abcd-2345 ', 'AbCd 2345']) {
      expect(readJoinInput(input), input).toEqual({ valid: true, kind: 'joinCode', path: '/join-transaction/ABCD2345' })
    }
  })

  it('takes a listing code in any case, with spaces around or without its hyphens', () => {
    for (const input of [
      listing,
      listing.toUpperCase(),
      `  ${listing} `,
      listing.replace(/-/g, ''),
      '1B9D6BCD BBFD-4B2D-9B5D-AB8DFBBD4BED'.replace(' ', '-'),
    ]) {
      expect(readJoinInput(input), input).toEqual({ valid: true, kind: 'listing', path: `/join-transaction/listing/${listing}` })
    }
  })

  it('takes a listing’s short code in any case, with spaces or without its hyphen, and opens it grouped', () => {
    for (const input of ['K7M2Q-9QHDX', 'k7m2q9qhdx', ' k7m2q 9qhdx ', 'K7M2-Q9QH-DX']) {
      expect(readJoinInput(input), input).toEqual({ valid: true, kind: 'listing', path: '/join-transaction/listing/K7M2Q-9QHDX' })
    }
    expect(readJoinInput('https://pactum.example/join-transaction/listing/k7m2q9qhdx')).toEqual({
      valid: true,
      kind: 'listing',
      path: '/join-transaction/listing/K7M2Q-9QHDX',
    })
    // Nine characters: a listing code not yet complete. Too long, or a character outside the alphabet: no code, not repaired.
    expect(readJoinInput('K7M2Q-9QHD')).toEqual({ valid: false, reason: 'listingCode' })
    expect(readJoinInput('K7M2Q-9QHDXY')).toEqual({ valid: false, reason: 'unrecognised' })
    expect(readJoinInput('K7M2Q-9QHDO')).toEqual({ valid: false, reason: 'unrecognised' })
  })

  it('takes a pasted listing link or join link, keeping the partner client it names', () => {
    expect(readJoinInput(`https://pactum.example/join-transaction/listing/${listing.toUpperCase()}`)).toEqual({
      valid: true,
      kind: 'listing',
      path: `/join-transaction/listing/${listing}`,
    })
    expect(readJoinInput(`https://pactum.example/join-transaction/listing/${listing}?client_id=demo-marketplace&utm=x`)).toEqual({
      valid: true,
      kind: 'listing',
      path: `/join-transaction/listing/${listing}?client_id=demo-marketplace`,
    })
    expect(readJoinInput('http://localhost:3000/join-transaction/abcd2345')).toEqual({
      valid: true,
      kind: 'joinCode',
      path: '/join-transaction/ABCD2345',
    })
    expect(readJoinInput('pactum.example/join-transaction/ABCD2345?client_id=market')).toEqual({
      valid: true,
      kind: 'joinCode',
      path: '/join-transaction/ABCD2345?client_id=market',
    })
    // A malformed client id is not carried into the app.
    expect(readJoinInput('/join-transaction/ABCD2345?client_id=Bad%20Id')).toEqual({
      valid: true,
      kind: 'joinCode',
      path: '/join-transaction/ABCD2345',
    })
  })

  it('names what is wrong with a bad input', () => {
    expect(readJoinInput('  ')).toEqual({ valid: false, reason: 'empty' })
    expect(readJoinInput('abc2345')).toEqual({ valid: false, reason: 'length' })
    expect(readJoinInput('abcO2345')).toEqual({ valid: false, reason: 'characters', characters: ['O'] })
    expect(readJoinInput(listing.slice(0, 30))).toEqual({ valid: false, reason: 'listingCode' })
    expect(readJoinInput(`${listing}0`)).toEqual({ valid: false, reason: 'listingCode' })
    expect(readJoinInput('this is not a code at all')).toEqual({ valid: false, reason: 'unrecognised' })
    expect(readJoinInput('https://pactum.example/transactions/123')).toEqual({ valid: false, reason: 'link' })
    expect(readJoinInput(`https://pactum.example/join-transaction/listing/${listing.slice(0, 30)}`)).toEqual({
      valid: false,
      reason: 'link',
    })
    expect(readJoinInput('https://pactum.example/join-transaction/NOTACODE')).toEqual({ valid: false, reason: 'link' })
  })

  it('counts a join code’s remaining characters only while the input can be one', () => {
    expect(joinCodeProgress('')).toBe(8)
    expect(joinCodeProgress('abc')).toBe(5)
    expect(joinCodeProgress('abcd-2345')).toBe(0)
    expect(joinCodeProgress('1b9d')).toBeNull()
    expect(joinCodeProgress(listing)).toBeNull()
  })
})

describe('characters flagged while typing', () => {
  it('names those no join code has, but not the digits a listing code may start with', () => {
    expect(foreignJoinCodeCharacters('abcO')).toEqual(['O'])
    expect(foreignJoinCodeCharacters('a1b_')).toEqual(['1', '_'])
    expect(foreignJoinCodeCharacters('1b9d')).toEqual([])
    expect(foreignJoinCodeCharacters('https://x/')).toEqual([])
  })
})
