import { expect, type Page } from '@playwright/test'
import { accessTokenOf, newPerson, registeredPerson } from '../support/people.ts'
import { buyerJoins, sellerCreates } from '../support/sale.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { test } from '../support/test.ts'

/**
 * DESIGN §2: SEPA is for company users only. An ordinary user (the e2e
 * server has no company domain) never sees it offered, and the API refuses
 * it even when asked directly with their own token.
 */

test('an ordinary user never sees SEPA and cannot force it through the API', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Sepa'))

  // Creating: the methods offered are card and P24.
  await seller.goto('/create-transaction')
  await seller.getByTestId('role-seller').check()
  await seller.getByTestId('create-next').click()
  await expect(seller.getByTestId('method-card')).toBeVisible()
  await expect(seller.getByTestId('method-p24')).toBeVisible()
  await expect(seller.getByTestId('method-sepa')).toHaveCount(0)
  await keepScreenshot(seller, 'create-methods-ordinary')

  const api = async (page: Page, path: string, body: object) =>
    page.request.post(`/api/v1${path}`, { headers: { authorization: `Bearer ${await accessTokenOf(page)}` }, data: body })
  const quote = await (await seller.request.get('/api/v1/charge?price=10000&currency=eur&payment_method=sepa')).json()
  const forcedCreate = await api(seller, '/me/transactions', {
    role: 'seller',
    price: 10_000,
    currency: 'eur',
    description: 'Forced SEPA',
    payment_method: 'sepa',
    charge: quote.charge,
    charge_calculator_version: quote.charge_calculator_version,
  })
  expect(forcedCreate.status()).toBe(403)
  expect((await forcedCreate.json()).code).toBe('payment_method_not_allowed')

  // Paying: the checkout offers card and P24 only, and the API refuses SEPA from the buyer.
  const code = await sellerCreates(seller, 'Walnut desk', '120.00')
  const buyer = await registeredPerson(browser, newPerson('Iban'))
  await buyerJoins(buyer, code)
  const id = buyer.url().split('/').at(-1) ?? ''
  await buyer.getByTestId('action-pay').click()
  const checkout = buyer.getByTestId('checkout-dialog')
  await checkout.getByLabel('Full name').fill('Iban Tester')
  await checkout.getByLabel('Address line 1').fill('1 Main Street')
  await checkout.getByLabel('Town or city').fill('Dublin')
  await checkout.getByLabel('Postcode').fill('D01 F5P2')
  await checkout.getByLabel('Country').selectOption('ie')
  await checkout.getByTestId('checkout-next').click()
  await expect(checkout.getByTestId('checkout-method-card')).toBeVisible()
  await expect(checkout.getByTestId('checkout-method-p24')).toBeVisible()
  await expect(checkout.getByTestId('checkout-method-sepa')).toHaveCount(0)

  const forcedMethod = await api(buyer, `/transactions/${id}/set_payment_method`, { payment_method: 'sepa' })
  expect(forcedMethod.status()).toBe(403)
  expect((await forcedMethod.json()).code).toBe('payment_method_not_allowed')
  const transaction = await (
    await buyer.request.get(`/api/v1/transactions/${id}`, { headers: { authorization: `Bearer ${await accessTokenOf(buyer)}` } })
  ).json()
  expect(transaction.payment_method).toBe('card')
})
