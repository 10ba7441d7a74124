import type { FastifyInstance } from 'fastify'
import type { TestApp } from './test-app.ts'

type TokenOptions = NonNullable<Parameters<TestApp['tokenFor']>[1]>

/**
 * Signs each party in as `<role>@example.com`, so that a test can tell from
 * a mail's address or a party's details whose they are.
 */
export async function partyTokens<Role extends string>(
  tokenFor: TestApp['tokenFor'],
  parties: Record<Role, TokenOptions>,
): Promise<Record<Role, string>> {
  const tokens: Partial<Record<Role, string>> = {}
  for (const role of Object.keys(parties) as Role[]) tokens[role] = await tokenFor(`${role}@example.com`, parties[role])
  return tokens as Record<Role, string>
}

/**
 * Calls the app as one of the parties, or signed out with `null`. URLs are
 * full paths (`/api/v1/...`, `/app_api/...`, `/sandbox/v1/...`), as a client
 * would send them.
 */
export function apiCaller<Role extends string>(app: FastifyInstance, tokens: Record<Role, string>) {
  return async (
    who: Role | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}), ...headers },
      ...(payload ? { payload } : {}),
    })
    return { status: response.statusCode, body: response.body ? response.json() : undefined, headers: response.headers }
  }
}

export type ApiCall<Role extends string> = ReturnType<typeof apiCaller<Role>>
