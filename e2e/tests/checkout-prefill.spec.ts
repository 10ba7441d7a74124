import { expect } from '@playwright/test'
import { expectNoAxeViolations } from '../support/axe.ts'
import { newPerson, registeredPerson } from '../support/people.ts'
import { buyerJoins, buyerPays, sellerCreates, shippingAddress } from '../support/sale.ts'
import { keepScreenshot } from '../support/screenshots.ts'
import { closeSuccess } from '../support/result.ts'
import { test } from '../support/test.ts'

/**
 * The checkout prefills what it knows: before a buyer's first checkout their
 * profile's name and country, after it the address they gave there.
 */
test('a buyer’s second checkout offers the address they gave at the first', async ({ browser }) => {
  const seller = await registeredPerson(browser, newPerson('Sol'))
  const bo = newPerson('Bo')
  const buyer = await registeredPerson(browser, bo)

  await buyerJoins(buyer, await sellerCreates(seller, 'Green desk lamp', '40.00'))
  await buyer.getByTestId('action-pay').click()
  const checkout = buyer.getByTestId('checkout-dialog')
  // Nothing given yet: the name and country (Ireland, chosen at sign-up) come from the profile.
  await expect(checkout.getByLabel('Full name')).toHaveValue(`${bo.firstName} ${bo.lastName}`)
  await expect(checkout.getByLabel('Country')).toHaveValue('ie')
  await expect(checkout.getByLabel('Address line 1')).toHaveValue('')
  await checkout.getByRole('button', { name: 'Cancel' }).click()
  await buyerPays(buyer, '4242 4242 4242 4242')
  await closeSuccess(buyer)

  await buyerJoins(buyer, await sellerCreates(seller, 'Red desk lamp', '30.00'))
  const secondSale = buyer.url()
  await buyer.getByTestId('action-pay').click()
  await expect(checkout.getByLabel('Address line 1')).toHaveValue(shippingAddress.line1)
  await expect(checkout.getByLabel('Full name')).toHaveValue(shippingAddress.name)
  await expect(checkout.getByLabel('Town or city')).toHaveValue(shippingAddress.city)
  await expect(checkout.getByLabel('Postcode')).toHaveValue(shippingAddress.postcode)
  await expect(checkout.getByLabel('Country')).toHaveValue(shippingAddress.country)
  await expectNoAxeViolations(buyer, 'the prefilled checkout')
  await keepScreenshot(buyer, 'checkout-prefilled')

  // Sent as it stands, and the seller ships to it.
  await checkout.getByTestId('checkout-next').click()
  await checkout.getByTestId('checkout-method-card').check()
  await checkout.getByTestId('checkout-next').click()
  await checkout.getByTestId('card-number-input').fill('4242 4242 4242 4242')
  await checkout.getByTestId('pay-submit').click()
  await expect(buyer.getByRole('heading', { name: 'Success!' })).toBeVisible()
  await seller.goto(new URL(secondSale).pathname)
  await expect(seller.getByTestId('transaction-status')).toHaveAttribute('data-status', 'paid')
  await expect(seller.getByTestId('shipping-address')).toContainText(shippingAddress.line1)
})
