import { apiCaller, partyTokens } from '../api-caller.ts'
import { depositAccepted, joinedF2fSale, createF2fSale } from '../f2f-sale-steps.ts'
import { createSale, joinedSale, payByCard } from '../sale-steps.ts'
import type { TestApp } from '../test-app.ts'

/*
 * Real values for the API fuzz: sales in every role and state the fuzzed
 * user can meet, so that generated ids, join codes and payment secrets
 * sometimes point at something that exists.
 */

/**
 * The caller's transactions, and values only a real caller knows, by the
 * name of the property or parameter that carries them.
 */
export async function makeTransactions(testApp: TestApp): Promise<Record<string, unknown[]>> {
  const tokens = await partyTokens(testApp.tokenFor, { user: {}, buyer: {}, stranger: {} })
  // The fuzzed user sells in some transactions and buys in others.
  const asSeller = apiCaller(testApp.app, { seller: tokens.user, buyer: tokens.buyer })
  const asBuyer = apiCaller(testApp.app, { seller: tokens.stranger, buyer: tokens.user })
  const strangers = apiCaller(testApp.app, { seller: tokens.stranger, buyer: tokens.buyer })

  const sold = await joinedSale(asSeller)
  const { intentId, clientSecret } = await payByCard(asSeller, sold.id)
  const bought = await joinedSale(asBuyer)
  const soldF2f = await joinedF2fSale(asSeller)
  await depositAccepted(asSeller, soldF2f.id)
  const boughtF2f = await joinedF2fSale(asBuyer)
  const ownOpen = await createSale(asSeller)
  const othersOpen = await createSale(strangers)
  const othersOpenF2f = await createF2fSale(strangers)
  const othersJoined = await joinedSale(strangers)
  // Bank linking is for users in the US.
  await asSeller('seller', 'POST', '/api/v1/me/personal/set_active_country', { country_code: 'us' })
  const linkToken = await asSeller('seller', 'GET', '/api/v1/me/plaid/link_token')
  if (linkToken.status !== 200) throw new Error(`no link token: ${JSON.stringify(linkToken.body)}`)
  // Payments the user has opened and not yet confirmed with the provider.
  const openPayment = (await asBuyer('buyer', 'POST', `/api/v1/transactions/${bought.id}/pay`)).body
  const openDeposit = (await asBuyer('buyer', 'POST', `/api/v1/p2p/transactions/${boughtF2f.id}/pay_deposit`)).body

  const ids = [sold.id, bought.id, soldF2f.id, boughtF2f.id, ownOpen.id, othersOpen.id, othersOpenF2f.id, othersJoined.id]
  return {
    id: ids,
    after_id: ids,
    code: [ownOpen.joinCode, othersOpen.joinCode, othersOpenF2f.joinCode],
    join_code: [ownOpen.joinCode, othersOpen.joinCode, othersOpenF2f.joinCode],
    payment_intent_id: [intentId, openPayment.payment_intent_id, openDeposit.payment_intent_id],
    client_secret: [clientSecret, openPayment.client_secret, openDeposit.client_secret],
    link_token: [linkToken.body.link_token],
    price: [sold.quote.price],
    charge: [sold.quote.charge],
    charge_calculator_version: [sold.quote.charge_calculator_version],
    deposit_price: [soldF2f.quote.price],
    deposit_charge: [soldF2f.quote.charge],
    currency: ['eur'],
    carrier: ['dhl', 'royal-mail'],
    card_number: ['4242424242424242', '4000000000000002'],
    country_code: ['de', 'us', 'ie'],
    // GET /me/batch: the first screen's reads, and ones with a bad query passed on to their route.
    get: [
      ['/me/transactions?limit=50', '/me/personal', '/me/personal/payout_requirements', '/me/guided_tour', '/me'],
      ['/me/transactions?limit=0&filter=%00', '/me/guided_tour'],
      [`/me/transactions?after_id=${ids[0]}`],
    ],
  }
}
