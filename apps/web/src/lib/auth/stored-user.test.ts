import { User } from 'oidc-client-ts'
import { beforeEach, describe, expect, it } from 'vitest'
import { oidcTestConfig } from '../../test/fake-client-config.ts'
import { createUserManager, toAuthUser } from './oidc-auth-service.ts'
import { readStoredUser, storedUserKey } from './stored-user.ts'

const config = oidcTestConfig

const user = new User({
  id_token: 'the-id-token',
  access_token: 'the-access-token',
  refresh_token: 'the-refresh-token',
  token_type: 'Bearer',
  profile: {
    sub: 'anna',
    iss: config.oidc.authority,
    aud: 'pactum-web',
    exp: 0,
    iat: 0,
    given_name: 'Anna',
    family_name: 'Virtanen',
    email: 'anna@example.test',
    email_verified: true,
  },
  expires_at: 1_900_000_000,
})

beforeEach(() => localStorage.clear())

describe('the stored user, read without the OpenID client', () => {
  it('is what oidc-client-ts stored and would read back', async () => {
    const manager = createUserManager(config, 'https://pactum.example.test', localStorage)
    await manager.storeUser(user)
    const viaClient = await manager.getUser()
    expect(viaClient).not.toBeNull()
    expect(readStoredUser(config, localStorage)).toEqual(toAuthUser(viaClient!))
  })

  it('is gone once oidc-client-ts removes it', async () => {
    const manager = createUserManager(config, 'https://pactum.example.test', localStorage)
    await manager.storeUser(user)
    await manager.removeUser()
    expect(readStoredUser(config, localStorage)).toBeNull()
  })

  it('is null when nothing or something unreadable is stored', () => {
    expect(readStoredUser(config, localStorage)).toBeNull()
    localStorage.setItem(storedUserKey(config), '{not json')
    expect(readStoredUser(config, localStorage)).toBeNull()
    localStorage.setItem(storedUserKey(config), JSON.stringify({ profile: {} }))
    expect(readStoredUser(config, localStorage)).toBeNull()
  })

  it('belongs to one provider and client', async () => {
    const manager = createUserManager(
      { ...config, oidc: { ...config.oidc, client_id: 'another-app' } },
      'https://pactum.example.test',
      localStorage,
    )
    await manager.storeUser(user)
    expect(readStoredUser(config, localStorage)).toBeNull()
  })
})
