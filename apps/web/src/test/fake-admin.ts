/**
 * GET /me for the operator the admin tests sign in as: `roles` held, `pending_roles` waiting on
 * `pending_role_needs` (by default both a confirmed address and a second factor).
 */
export function fakeOperator(
  roles: string[],
  pending_roles: string[] = [],
  pending_role_needs: string[] = pending_roles.length > 0 ? ['email_confirmation', 'second_factor'] : [],
) {
  return {
    id: 'u-1',
    email: 'ops@example.com',
    first_name: 'Olga',
    last_name: 'Ops',
    roles,
    email_verified: !pending_role_needs.includes('email_confirmation'),
    pending_roles,
    pending_role_needs,
    created: '2026-11-01T00:00:00Z',
  }
}

/** The routes that let the admin console open for a signed-in admin with no sales of their own. */
export function adminRoutes() {
  return { 'GET /me': fakeOperator(['admin']), 'GET /me/transactions': [] }
}
